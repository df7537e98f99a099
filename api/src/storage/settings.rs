//! Server-wide settings kept in the database, such as the generated session secret.

use super::{DbResult, Store, get};

impl Store {
    /// The value stored under `key`, if any.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn setting(&self, key: &str) -> DbResult<Option<String>> {
        let row = sqlx::query("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| get(&row, "value")).transpose()
    }

    /// The value stored under `key`, storing `default` first if there is none. When several
    /// nodes race, the first insert wins and every node gets that value.
    ///
    /// # Errors
    /// [`DbError::Other`](super::DbError::Other) when the database fails.
    pub async fn setting_or_insert(&self, key: &str, default: &str) -> DbResult<String> {
        let mut db = self.write_connection().await?;
        sqlx::query(
            "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
        )
        .bind(key)
        .bind(default)
        .execute(&mut *db)
        .await?;
        drop(db);
        let row = sqlx::query("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_one(&self.pool)
            .await?;
        get(&row, "value")
    }
}
