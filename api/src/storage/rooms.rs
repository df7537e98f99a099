//! Friend rooms: the invitation link, who joined it, and its current game.

use sqlx::any::AnyRow;

use super::{
    DbError, DbResult, NewRoom, RoomMember, RoomRow, Store, convert, get, parse, parse_opt,
};
use crate::domain::{RoomCode, Timestamp};

const ROOM_COLUMNS: &str = "code, host_id, host_name, guest_id, guest_name, created_at, expires_at, game_id, games_played, \
     time_control, xot";

impl Store {
    /// Stores a new room with its host and no guest.
    ///
    /// # Errors
    /// [`DbError::Conflict`] if the code is taken.
    pub async fn create_room(&self, room: &NewRoom) -> DbResult<()> {
        let mut db = self.write_connection().await?;
        sqlx::query(
            "INSERT INTO rooms (code, host_id, host_name, created_at, expires_at, time_control, \
                xot) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(room.code.as_str())
        .bind(room.host.id.as_str())
        .bind(room.host.name.as_str())
        .bind(room.created_at.0)
        .bind(room.expires_at.0)
        .bind(room.time_control.map(|control| control.to_string()))
        .bind(i32::from(room.xot))
        .execute(&mut *db)
        .await?;
        Ok(())
    }

    /// A room by its code, expired or not (the caller compares `expires_at` with its clock).
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown code.
    pub async fn room(&self, code: &RoomCode) -> DbResult<RoomRow> {
        let row = sqlx::query(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE code = $1"))
            .bind(code.as_str())
            .fetch_optional(&self.pool)
            .await?
            .ok_or(DbError::NotFound)?;
        room_row(&row)
    }

    /// Makes `guest` the room's guest and returns the room. The same guest joining again (say,
    /// from another tab) succeeds and updates their name; anyone else gets a conflict.
    ///
    /// # Errors
    /// [`DbError::NotFound`] for an unknown code; [`DbError::Conflict`] if another guest joined.
    pub async fn join_room(&self, code: &RoomCode, guest: &RoomMember) -> DbResult<RoomRow> {
        let mut db = self.write_connection().await?;
        let updated = sqlx::query(
            "UPDATE rooms SET guest_id = $2, guest_name = $3 \
             WHERE code = $1 AND (guest_id IS NULL OR guest_id = $2)",
        )
        .bind(code.as_str())
        .bind(guest.id.as_str())
        .bind(guest.name.as_str())
        .execute(&mut *db)
        .await?
        .rows_affected();
        drop(db);
        let room = self.room(code).await?;
        if updated == 0 {
            return Err(DbError::Conflict);
        }
        Ok(room)
    }
}

/// Reads a `rooms` row.
fn room_row(row: &AnyRow) -> DbResult<RoomRow> {
    let guest_id: Option<String> = get(row, "guest_id")?;
    let guest_name: Option<String> = get(row, "guest_name")?;
    let guest = match (guest_id, guest_name) {
        (Some(id), Some(name)) => Some(RoomMember { id: parse("rooms.guest_id", &id)?, name }),
        (None, None) => None,
        _ => {
            return Err(DbError::Other(
                "columns rooms.guest_id and rooms.guest_name must both be set or both be NULL"
                    .into(),
            ));
        }
    };
    Ok(RoomRow {
        code: parse("rooms.code", &get::<String>(row, "code")?)?,
        host: RoomMember {
            id: parse("rooms.host_id", &get::<String>(row, "host_id")?)?,
            name: get(row, "host_name")?,
        },
        guest,
        created_at: Timestamp(get(row, "created_at")?),
        expires_at: Timestamp(get(row, "expires_at")?),
        game_id: parse_opt("rooms.game_id", get(row, "game_id")?)?,
        games_played: convert("rooms.games_played", get::<i32>(row, "games_played")?)?,
        time_control: parse_opt("rooms.time_control", get(row, "time_control")?)?,
        xot: get::<i32>(row, "xot")? != 0,
    })
}
