//! Accounts: who signed in, their public names, and deleting them. Their ratings, one per
//! pool, are in `storage::ratings`.

use sqlx::any::AnyRow;

use super::ratings::{identity_hash, keep_standings, restore_standings};
use super::{DbError, DbResult, Store, get, parse};
use crate::accounts::PublicName;
use crate::domain::{PlayerId, Timestamp};

/// What a deleted account's games show instead of its name.
pub const DELETED_PLAYER: &str = "Deleted player";

/// The columns of `accounts`; [`account_row`] reads them by name.
const ACCOUNT_COLUMNS: &str = "player_id, name, created_at";

/// A stored, not deleted account.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountRow {
    pub player_id: PlayerId,
    /// `None` until the player has chosen a public name.
    pub name: Option<String>,
    pub created_at: Timestamp,
}

/// Why a public name could not be set.
#[derive(Debug, thiserror::Error)]
pub enum NameError {
    #[error("that name is taken")]
    Taken,
    #[error("this account already has a public name")]
    AlreadyNamed,
    #[error(transparent)]
    Db(#[from] DbError),
}

impl Store {
    /// The account of `issuer`'s user `subject`, created (unnamed, rated 1,200) on first sign-in
    /// with `nickname` as its player's name until a public name is chosen.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn sign_in(
        &self,
        issuer: &str,
        subject: &str,
        nickname: &str,
        now: Timestamp,
    ) -> DbResult<AccountRow> {
        if let Some(account) = self.account_by_identity(issuer, subject).await? {
            return Ok(account);
        }
        let player = PlayerId::generate();
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        sqlx::query(
            "INSERT INTO players (id, nickname, kind, created_at, last_seen_at) \
             VALUES ($1, $2, 'account', $3, $3)",
        )
        .bind(player.as_str())
        .bind(nickname)
        .bind(now.0)
        .execute(&mut *tx)
        .await?;
        let inserted = sqlx::query(
            "INSERT INTO accounts (player_id, issuer, subject, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(player.as_str())
        .bind(issuer)
        .bind(subject)
        .bind(now.0)
        .execute(&mut *tx)
        .await;
        match inserted.map_err(DbError::from) {
            Ok(_) => {
                restore_standings(&mut tx, &player, &identity_hash(issuer, subject), now).await?;
                tx.commit().await?;
            }
            // The same person signed in twice at once: the other sign-in created the account.
            Err(DbError::Conflict) => {
                drop(tx);
                drop(db);
                return self.account_by_identity(issuer, subject).await?.ok_or(DbError::Conflict);
            }
            Err(error) => return Err(error),
        }
        drop(db);
        self.account(&player).await
    }

    async fn account_by_identity(
        &self,
        issuer: &str,
        subject: &str,
    ) -> DbResult<Option<AccountRow>> {
        sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts \
             WHERE issuer = $1 AND subject = $2 AND deleted_at IS NULL"
        ))
        .bind(issuer)
        .bind(subject)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(account_row)
        .transpose()
    }

    /// The account of player `id`.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when the player has no account, or deleted it.
    pub async fn account(&self, id: &PlayerId) -> DbResult<AccountRow> {
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE player_id = $1 AND deleted_at IS NULL"
        ))
        .bind(id.as_str())
        .fetch_optional(&self.pool)
        .await?
        .ok_or(DbError::NotFound)?;
        account_row(&row)
    }

    /// The account publicly called `name` or a look-alike of it ([`PublicName::key`]). An
    /// account whose key was left lower case only, as it looked like an older account's name
    /// when keys were first folded (migration `20261207000018`), is found by its own name.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when nobody is.
    pub async fn account_by_name(&self, name: &PublicName) -> DbResult<AccountRow> {
        let unfolded = name.as_str().to_ascii_lowercase();
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts \
             WHERE name_key IN ($1, $2) AND deleted_at IS NULL \
             ORDER BY CASE WHEN name_key = $2 THEN 0 ELSE 1 END LIMIT 1"
        ))
        .bind(name.key())
        .bind(unfolded)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(DbError::NotFound)?;
        account_row(&row)
    }

    /// Up to `limit` named accounts whose public name starts with `prefix`, look-alikes folded
    /// (`prefix` as it was typed), in name order; closed accounts are left out.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn search_accounts(&self, prefix: &str, limit: u32) -> DbResult<Vec<AccountRow>> {
        let key = crate::domain::fold_look_alikes(prefix);
        // `_` is a name's letter but LIKE's wildcard: escaped, with `%` and the escape itself.
        let pattern: String = key
            .chars()
            .flat_map(|c| match c {
                '\\' | '%' | '_' => vec!['\\', c],
                other => vec![other],
            })
            .chain(['%'])
            .collect();
        let rows = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a \
             WHERE a.name_key LIKE $1 ESCAPE '\\' AND a.name IS NOT NULL \
             AND a.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM sanctions s \
                WHERE s.player_id = a.player_id AND s.kind = 'closed' AND s.lifted_at IS NULL) \
             ORDER BY a.name_key LIMIT $2"
        ))
        .bind(pattern)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(account_row).collect()
    }

    /// Whether an account (not deleted) is publicly called by the name whose
    /// [`PublicName::key`] is `key`, or a look-alike of it: guests may not go by it (`key` is
    /// their [`Nickname::skeleton`](crate::domain::Nickname::skeleton), folded the same way).
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn is_account_name(&self, key: &str) -> DbResult<bool> {
        let row =
            sqlx::query("SELECT 1 AS one FROM accounts WHERE name_key = $1 AND deleted_at IS NULL")
                .bind(key)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.is_some())
    }

    /// Gives account `id` its public name, once.
    ///
    /// # Errors
    /// [`NameError::Taken`] when another account has it or a look-alike ([`PublicName::key`]),
    /// [`NameError::AlreadyNamed`] when this one has a name, `NotFound` without an account.
    pub async fn set_account_name(
        &self,
        id: &PlayerId,
        name: &PublicName,
    ) -> Result<(), NameError> {
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        let updated = sqlx::query(
            "UPDATE accounts SET name = $2, name_key = $3 \
             WHERE player_id = $1 AND deleted_at IS NULL AND name IS NULL",
        )
        .bind(id.as_str())
        .bind(name.as_str())
        .bind(name.key())
        .execute(&mut *tx)
        .await
        .map_err(|error| match DbError::from(error) {
            DbError::Conflict => NameError::Taken,
            other => NameError::Db(other),
        })?
        .rows_affected();
        if updated == 0 {
            drop(tx);
            drop(db);
            self.account(id).await?;
            return Err(NameError::AlreadyNamed);
        }
        sqlx::query("UPDATE players SET nickname = $2 WHERE id = $1")
            .bind(id.as_str())
            .bind(name.as_str())
            .execute(&mut *tx)
            .await
            .map_err(DbError::from)?;
        // The name's history is timed when it is chosen, as the account's creation is.
        super::moderation::start_name(&mut tx, id, name.as_str(), Timestamp::now()).await?;
        tx.commit().await.map_err(DbError::from)?;
        Ok(())
    }

    /// Deletes account `id`: its identity and name are forgotten (so signing in again starts a
    /// new account), it leaves the leaderboard, and its games stay, showing a deleted player.
    ///
    /// # Errors
    /// [`DbError::NotFound`] without an account.
    pub async fn delete_account(&self, id: &PlayerId, now: Timestamp) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        keep_standings(&mut tx, id, now).await?;
        let updated = sqlx::query(
            "UPDATE accounts SET issuer = NULL, subject = NULL, name = NULL, name_key = NULL, \
                deleted_at = $2 \
             WHERE player_id = $1 AND deleted_at IS NULL",
        )
        .bind(id.as_str())
        .bind(now.0)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            return Err(DbError::NotFound);
        }
        for statement in [
            "UPDATE players SET nickname = $2, kind = 'deleted' WHERE id = $1",
            "UPDATE games SET black_name = $2 WHERE black_id = $1",
            "UPDATE games SET white_name = $2 WHERE white_id = $1",
            "UPDATE rooms SET host_name = $2 WHERE host_id = $1",
            "UPDATE rooms SET guest_name = $2 WHERE guest_id = $1",
        ] {
            sqlx::query(statement).bind(id.as_str()).bind(DELETED_PLAYER).execute(&mut *tx).await?;
        }
        // A deleted account follows nobody and is followed by nobody.
        sqlx::query("DELETE FROM follows WHERE follower_id = $1 OR followed_id = $1")
            .bind(id.as_str())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}

fn account_row(row: &AnyRow) -> DbResult<AccountRow> {
    Ok(AccountRow {
        player_id: parse("player_id", &get::<String>(row, "player_id")?)?,
        name: get(row, "name")?,
        created_at: Timestamp(get(row, "created_at")?),
    })
}
