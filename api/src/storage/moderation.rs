//! Moderation: who moderates, the reports they read, the sanctions they put on accounts (with
//! the refunds an engine sanction gives), and the log of everything they did.
//!
//! The log is written in the same transaction as the action it records, and nothing here
//! updates or deletes a log row: undoing an action is a new entry.

use sqlx::any::AnyRow;
use sqlx::{Any, Transaction};

use super::{DbError, DbResult, Store, get, parse, parse_opt};
use crate::accounts::PublicName;
use crate::domain::{
    GameId, PlayerId, ReportId, ReportReason, ReportStatus, SanctionId, SanctionKind, Timestamp,
};
use crate::live::Pool;

/// What a closed account's games show instead of its name.
pub const CLOSED_ACCOUNT: &str = "Closed account";
/// What a renamed account's past games show instead of the name a moderator reset.
pub const RENAMED_PLAYER: &str = "Renamed player";
/// How far back an engine sanction refunds the account's opponents.
pub const REFUND_WINDOW_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// Reports one player may file in a day.
pub const REPORTS_PER_DAY: i64 = 10;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// A report as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportRow {
    pub id: ReportId,
    /// `None` for the reviews' own signal.
    pub reporter: Option<PlayerId>,
    /// The name the reporter goes by now.
    pub reporter_name: Option<String>,
    pub target: PlayerId,
    /// The target's name when reported.
    pub target_name: String,
    pub game_id: Option<GameId>,
    pub reason: ReportReason,
    pub details: String,
    /// The numbers behind a signal, as JSON.
    pub evidence: Option<String>,
    pub status: ReportStatus,
    pub created_at: Timestamp,
    pub closed_at: Option<Timestamp>,
}

/// A report about to be filed by a player.
#[derive(Clone, Debug, PartialEq)]
pub struct NewReport {
    pub reporter: PlayerId,
    pub target: PlayerId,
    pub target_name: String,
    pub game_id: Option<GameId>,
    pub reason: ReportReason,
    pub details: String,
}

/// Why a report was not filed.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("you already reported this player; a moderator will look at it")]
    AlreadyOpen,
    #[error("you have sent {REPORTS_PER_DAY} reports today; try again tomorrow")]
    TooMany,
    #[error(transparent)]
    Db(#[from] DbError),
}

/// A sanction as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct SanctionRow {
    pub id: SanctionId,
    pub player: PlayerId,
    pub kind: SanctionKind,
    pub reason: String,
    /// The public name a name sanction reset.
    pub previous_name: Option<String>,
    pub created_at: Timestamp,
    pub created_by: PlayerId,
    pub lifted_at: Option<Timestamp>,
    pub lifted_by: Option<PlayerId>,
}

/// Why a sanction could not be put or lifted.
#[derive(Debug, thiserror::Error)]
pub enum SanctionError {
    #[error("this account already has that sanction")]
    AlreadyActive,
    #[error("that sanction was lifted already")]
    AlreadyLifted,
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Rating points given back to a player for a game lost to a sanctioned account.
#[derive(Clone, Debug, PartialEq)]
pub struct RefundRow {
    pub sanction: SanctionId,
    pub player: PlayerId,
    pub game_id: GameId,
    pub pool: Pool,
    pub points: f64,
    pub at: Timestamp,
    pub withdrawn_at: Option<Timestamp>,
}

/// One line of the moderators' log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogRow {
    pub id: String,
    pub at: Timestamp,
    /// `None` for the server's own command line.
    pub moderator: Option<PlayerId>,
    pub moderator_name: Option<String>,
    pub action: String,
    pub target: Option<PlayerId>,
    pub target_name: Option<String>,
    /// What the action was on: a sanction's id, a kind.
    pub subject: Option<String>,
    pub reason: String,
}

/// A public name an account had, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct NameSpan {
    pub name: String,
    pub from: Timestamp,
    pub until: Option<Timestamp>,
}

/// A moderator, with when they became one.
#[derive(Clone, Debug, PartialEq)]
pub struct ModeratorRow {
    pub player: PlayerId,
    pub name: Option<String>,
    pub added_at: Timestamp,
}

/// The columns [`report_row`] reads, from `reports r` joined with its reporter `p`.
const REPORT_COLUMNS: &str = "r.id, r.reporter_id, p.nickname AS reporter_name, r.target_id, \
    r.target_name, r.game_id, r.reason, r.details, r.evidence, r.status, r.created_at, r.closed_at";
const REPORTS: &str = "reports r LEFT JOIN players p ON p.id = r.reporter_id";
const SANCTION_COLUMNS: &str = "id, player_id, kind, reason, previous_name, created_at, \
    created_by, lifted_at, lifted_by";

impl Store {
    /// Makes the account called `name` a moderator. Returns `false` when it was one already.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when no account is called that.
    pub async fn add_moderator(&self, name: &PublicName, now: Timestamp) -> DbResult<bool> {
        let account = self.account_by_name(name).await?;
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        let added = sqlx::query(
            "INSERT INTO moderators (player_id, added_at) VALUES ($1, $2) \
             ON CONFLICT (player_id) DO NOTHING",
        )
        .bind(account.player_id.as_str())
        .bind(now.0)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            > 0;
        if added {
            let entry = Entry::new("moderator_added", None, Some(&account.player_id), None, "");
            entry.write(&mut tx, now).await?;
        }
        tx.commit().await?;
        Ok(added)
    }

    /// Takes the moderator role from the account called `name`. Returns `false` when it did
    /// not have it.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when no account is called that.
    pub async fn remove_moderator(&self, name: &PublicName, now: Timestamp) -> DbResult<bool> {
        let account = self.account_by_name(name).await?;
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        let removed = sqlx::query("DELETE FROM moderators WHERE player_id = $1")
            .bind(account.player_id.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        if removed {
            let entry = Entry::new("moderator_removed", None, Some(&account.player_id), None, "");
            entry.write(&mut tx, now).await?;
        }
        tx.commit().await?;
        Ok(removed)
    }

    /// Every moderator, by name.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn moderators(&self) -> DbResult<Vec<ModeratorRow>> {
        let rows = sqlx::query(
            "SELECT m.player_id, a.name, m.added_at FROM moderators m \
             LEFT JOIN accounts a ON a.player_id = m.player_id AND a.deleted_at IS NULL \
             ORDER BY a.name, m.player_id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ModeratorRow {
                    player: parse("player_id", &get::<String>(row, "player_id")?)?,
                    name: get(row, "name")?,
                    added_at: Timestamp(get(row, "added_at")?),
                })
            })
            .collect()
    }

    /// Whether `player` is a moderator now: asked on every moderator's request.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn is_moderator(&self, player: &PlayerId) -> DbResult<bool> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM moderators m JOIN accounts a ON a.player_id = m.player_id \
             WHERE m.player_id = $1 AND a.deleted_at IS NULL",
        )
        .bind(player.as_str())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Files `report` at `now`: one open report per reporter and target, and at most
    /// [`REPORTS_PER_DAY`] a day per reporter.
    ///
    /// # Errors
    /// [`ReportError::AlreadyOpen`], [`ReportError::TooMany`].
    pub async fn file_report(
        &self,
        report: &NewReport,
        now: Timestamp,
    ) -> Result<ReportRow, ReportError> {
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM reports WHERE reporter_id = $1 AND created_at > $2",
        )
        .bind(report.reporter.as_str())
        .bind(now.0 - DAY_MS)
        .fetch_one(&mut *tx)
        .await
        .map_err(DbError::from)?;
        if get::<i64>(&row, "n")? >= REPORTS_PER_DAY {
            return Err(ReportError::TooMany);
        }
        let id = ReportId::generate();
        sqlx::query(
            "INSERT INTO reports (id, reporter_id, target_id, target_name, game_id, reason, \
                details, status, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8)",
        )
        .bind(id.as_str())
        .bind(report.reporter.as_str())
        .bind(report.target.as_str())
        .bind(&report.target_name)
        .bind(report.game_id.as_ref().map(GameId::as_str))
        .bind(report.reason.as_str())
        .bind(&report.details)
        .bind(now.0)
        .execute(&mut *tx)
        .await
        .map_err(|error| match DbError::from(error) {
            DbError::Conflict => ReportError::AlreadyOpen,
            other => ReportError::Db(other),
        })?;
        tx.commit().await.map_err(DbError::from)?;
        drop(db);
        Ok(self.report(&id).await?)
    }

    /// Puts the reviews' signal about `target` on the queue, unless one is open already.
    /// Returns whether it was added.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn file_signal(
        &self,
        target: &PlayerId,
        game_id: &GameId,
        details: &str,
        evidence: &str,
        now: Timestamp,
    ) -> DbResult<bool> {
        let mut db = self.write_connection().await?;
        let inserted = sqlx::query(
            "INSERT INTO reports (id, reporter_id, target_id, target_name, game_id, reason, \
                details, evidence, status, created_at) \
             SELECT $1, NULL, p.id, p.nickname, $3, 'signal', $4, $5, 'open', $6 \
             FROM players p WHERE p.id = $2 AND NOT EXISTS ( \
                SELECT 1 FROM reports r WHERE r.target_id = $2 AND r.reason = 'signal' \
                AND r.status = 'open')",
        )
        .bind(ReportId::generate().as_str())
        .bind(target.as_str())
        .bind(game_id.as_str())
        .bind(details)
        .bind(evidence)
        .bind(now.0)
        .execute(&mut *db)
        .await?
        .rows_affected();
        Ok(inserted > 0)
    }

    /// Report `id`.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when there is none.
    pub async fn report(&self, id: &ReportId) -> DbResult<ReportRow> {
        let row = sqlx::query(&format!("SELECT {REPORT_COLUMNS} FROM {REPORTS} WHERE r.id = $1"))
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?
            .ok_or(DbError::NotFound)?;
        report_row(&row)
    }

    /// The reports `reporter` filed, newest first (the last 50).
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn reports_by(&self, reporter: &PlayerId) -> DbResult<Vec<ReportRow>> {
        self.reports_where(
            "r.reporter_id = $1 ORDER BY r.created_at DESC LIMIT 50",
            reporter.as_str(),
        )
        .await
    }

    /// The reports on `target`, newest first (the last 100).
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn reports_on(&self, target: &PlayerId) -> DbResult<Vec<ReportRow>> {
        self.reports_where("r.target_id = $1 ORDER BY r.created_at DESC LIMIT 100", target.as_str())
            .await
    }

    /// The open reports, oldest first (the first 500).
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn open_reports(&self) -> DbResult<Vec<ReportRow>> {
        self.reports_where("r.status = $1 ORDER BY r.created_at, r.id LIMIT 500", "open").await
    }

    async fn reports_where(&self, clause: &str, value: &str) -> DbResult<Vec<ReportRow>> {
        let rows = sqlx::query(&format!("SELECT {REPORT_COLUMNS} FROM {REPORTS} WHERE {clause}"))
            .bind(value)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(report_row).collect()
    }

    /// Closes the open reports on `target` as dismissed, by `moderator` for `reason`, and
    /// logs it. Returns how many were closed.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn dismiss_reports(
        &self,
        target: &PlayerId,
        moderator: &PlayerId,
        reason: &str,
        now: Timestamp,
    ) -> DbResult<u64> {
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        let closed = close_reports(&mut tx, target, ReportStatus::Dismissed, now).await?;
        if closed > 0 {
            let entry =
                Entry::new("reports_dismissed", Some(moderator), Some(target), None, reason);
            entry.write(&mut tx, now).await?;
        }
        tx.commit().await?;
        Ok(closed)
    }

    /// Puts a `kind` sanction on account `player`, by `moderator` for `reason`, with what it
    /// does to the account: an engine sanction refunds the rating points each opponent lost
    /// to it in the last 30 days; a name sanction resets the public name (past games show
    /// [`RENAMED_PLAYER`]); closing shows [`CLOSED_ACCOUNT`] in its games. The open reports
    /// on the player are closed as acted on, and the action is logged. Ending the player's
    /// sessions is the caller's.
    ///
    /// # Errors
    /// [`SanctionError::AlreadyActive`]; [`DbError::NotFound`] without an account.
    pub async fn sanction(
        &self,
        player: &PlayerId,
        kind: SanctionKind,
        moderator: &PlayerId,
        reason: &str,
        now: Timestamp,
    ) -> Result<SanctionRow, SanctionError> {
        let account = self.account(player).await?;
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        if active_kinds(&mut tx, player).await?.contains(&kind) {
            return Err(SanctionError::AlreadyActive);
        }
        let id = SanctionId::generate();
        let previous_name = (kind == SanctionKind::Name).then_some(account.name.clone()).flatten();
        sqlx::query(
            "INSERT INTO sanctions (id, player_id, kind, reason, previous_name, created_at, \
                created_by) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id.as_str())
        .bind(player.as_str())
        .bind(kind.as_str())
        .bind(reason)
        .bind(previous_name.as_deref())
        .bind(now.0)
        .bind(moderator.as_str())
        .execute(&mut *tx)
        .await
        .map_err(DbError::from)?;
        match kind {
            SanctionKind::Engine => refund_opponents(&mut tx, &id, player, now).await?,
            SanctionKind::Name => reset_name(&mut tx, player, now).await?,
            SanctionKind::Closed => rename_in_games(&mut tx, player, CLOSED_ACCOUNT).await?,
        }
        close_reports(&mut tx, player, ReportStatus::ActedOn, now).await?;
        Entry::new("sanction", Some(moderator), Some(player), Some(id.as_str()), reason)
            .with_kind(kind)
            .write(&mut tx, now)
            .await?;
        tx.commit().await.map_err(DbError::from)?;
        drop(db);
        Ok(self.sanction_row(&id).await?)
    }

    /// Lifts sanction `id`, by `moderator` for `reason`, undoing what it did: an engine
    /// sanction's refunds are taken back, a reset name is given back when nobody took it and
    /// the owner chose none since, a closed account's games show its name again.
    ///
    /// # Errors
    /// [`SanctionError::AlreadyLifted`]; [`DbError::NotFound`] for an unknown sanction.
    pub async fn lift_sanction(
        &self,
        id: &SanctionId,
        moderator: &PlayerId,
        reason: &str,
        now: Timestamp,
    ) -> Result<SanctionRow, SanctionError> {
        let sanction = self.sanction_row(id).await?;
        let mut db = self.write_connection().await?;
        let mut tx = db.begin().await?;
        let lifted = sqlx::query(
            "UPDATE sanctions SET lifted_at = $2, lifted_by = $3 \
             WHERE id = $1 AND lifted_at IS NULL",
        )
        .bind(id.as_str())
        .bind(now.0)
        .bind(moderator.as_str())
        .execute(&mut *tx)
        .await
        .map_err(DbError::from)?
        .rows_affected();
        if lifted == 0 {
            return Err(SanctionError::AlreadyLifted);
        }
        let player = &sanction.player;
        match sanction.kind {
            SanctionKind::Engine => withdraw_refunds(&mut tx, id, now).await?,
            SanctionKind::Name => {
                if let Some(name) = sanction.previous_name.as_deref() {
                    restore_name(&mut tx, player, name, now).await?;
                }
            }
            SanctionKind::Closed => {
                let name = shown_name(&mut tx, player).await?;
                restore_in_games(&mut tx, player, CLOSED_ACCOUNT, &name).await?;
            }
        }
        Entry::new("sanction_lifted", Some(moderator), Some(player), Some(id.as_str()), reason)
            .with_kind(sanction.kind)
            .write(&mut tx, now)
            .await?;
        tx.commit().await.map_err(DbError::from)?;
        drop(db);
        Ok(self.sanction_row(id).await?)
    }

    /// Sanction `id`.
    ///
    /// # Errors
    /// [`DbError::NotFound`] when there is none.
    pub async fn sanction_row(&self, id: &SanctionId) -> DbResult<SanctionRow> {
        let row = sqlx::query(&format!("SELECT {SANCTION_COLUMNS} FROM sanctions WHERE id = $1"))
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?
            .ok_or(DbError::NotFound)?;
        sanction_row(&row)
    }

    /// Every sanction `player` has had, newest first.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn sanctions_of(&self, player: &PlayerId) -> DbResult<Vec<SanctionRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {SANCTION_COLUMNS} FROM sanctions WHERE player_id = $1 \
             ORDER BY created_at DESC, id"
        ))
        .bind(player.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(sanction_row).collect()
    }

    /// The kinds of sanction `player` is under now.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn active_sanctions(&self, player: &PlayerId) -> DbResult<Vec<SanctionKind>> {
        let rows = sqlx::query(
            "SELECT kind FROM sanctions WHERE player_id = $1 AND lifted_at IS NULL ORDER BY kind",
        )
        .bind(player.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| parse("kind", &get::<String>(row, "kind")?)).collect()
    }

    /// The refunds `player` was given, newest first (the last 100), withdrawn ones included.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn refunds_to(&self, player: &PlayerId) -> DbResult<Vec<RefundRow>> {
        let rows = sqlx::query(
            "SELECT sanction_id, player_id, game_id, pool, points, at, withdrawn_at \
             FROM rating_refunds WHERE player_id = $1 ORDER BY at DESC, game_id LIMIT 100",
        )
        .bind(player.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(refund_row).collect()
    }

    /// The moderators' log, newest first: `limit` entries before `before` (all when `None`).
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn moderation_log(
        &self,
        before: Option<Timestamp>,
        limit: u32,
    ) -> DbResult<Vec<LogRow>> {
        let rows = sqlx::query(
            "SELECT l.id, l.at, l.moderator_id, m.name AS moderator_name, l.action, l.target_id, \
                p.nickname AS target_name, l.subject, l.reason \
             FROM moderation_log l \
             LEFT JOIN accounts m ON m.player_id = l.moderator_id \
             LEFT JOIN players p ON p.id = l.target_id \
             WHERE l.at < $1 ORDER BY l.at DESC, l.id DESC LIMIT $2",
        )
        .bind(before.map_or(i64::MAX, |at| at.0))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(log_row).collect()
    }

    /// The public names `player` has had, oldest first.
    ///
    /// # Errors
    /// [`DbError::Other`] when the database fails.
    pub async fn name_history(&self, player: &PlayerId) -> DbResult<Vec<NameSpan>> {
        let rows = sqlx::query(
            "SELECT name, from_at, until_at FROM name_history WHERE player_id = $1 \
             ORDER BY from_at, name",
        )
        .bind(player.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(NameSpan {
                    name: get(row, "name")?,
                    from: Timestamp(get(row, "from_at")?),
                    until: get::<Option<i64>>(row, "until_at")?.map(Timestamp),
                })
            })
            .collect()
    }
}

/// Records in `tx` that `player` is publicly called `name` from `now`.
pub(super) async fn start_name(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
    name: &str,
    now: Timestamp,
) -> DbResult<()> {
    sqlx::query("INSERT INTO name_history (player_id, name, from_at) VALUES ($1, $2, $3)")
        .bind(player.as_str())
        .bind(name)
        .bind(now.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// One entry of the log, written with the action it records.
struct Entry<'a> {
    action: &'static str,
    moderator: Option<&'a PlayerId>,
    target: Option<&'a PlayerId>,
    subject: Option<String>,
    reason: &'a str,
}

impl<'a> Entry<'a> {
    fn new(
        action: &'static str,
        moderator: Option<&'a PlayerId>,
        target: Option<&'a PlayerId>,
        subject: Option<&str>,
        reason: &'a str,
    ) -> Entry<'a> {
        Entry { action, moderator, target, subject: subject.map(str::to_owned), reason }
    }

    /// The subject with the sanction's kind: `engine:<id>`.
    fn with_kind(mut self, kind: SanctionKind) -> Entry<'a> {
        self.subject = Some(match self.subject {
            Some(id) => format!("{}:{id}", kind.as_str()),
            None => kind.as_str().to_owned(),
        });
        self
    }

    async fn write(self, tx: &mut Transaction<'_, Any>, now: Timestamp) -> DbResult<()> {
        sqlx::query(
            "INSERT INTO moderation_log (id, at, moderator_id, action, target_id, subject, reason) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(ReportId::generate().as_str())
        .bind(now.0)
        .bind(self.moderator.map(PlayerId::as_str))
        .bind(self.action)
        .bind(self.target.map(PlayerId::as_str))
        .bind(self.subject.as_deref())
        .bind(self.reason)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

async fn active_kinds(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
) -> DbResult<Vec<SanctionKind>> {
    let rows = sqlx::query("SELECT kind FROM sanctions WHERE player_id = $1 AND lifted_at IS NULL")
        .bind(player.as_str())
        .fetch_all(&mut **tx)
        .await?;
    rows.iter().map(|row| parse("kind", &get::<String>(row, "kind")?)).collect()
}

async fn close_reports(
    tx: &mut Transaction<'_, Any>,
    target: &PlayerId,
    status: ReportStatus,
    now: Timestamp,
) -> DbResult<u64> {
    let closed = sqlx::query(
        "UPDATE reports SET status = $2, closed_at = $3 WHERE target_id = $1 AND status = 'open'",
    )
    .bind(target.as_str())
    .bind(status.as_str())
    .bind(now.0)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(closed)
}

/// Gives each opponent of `player` back the points lost to it in rated games of the last
/// [`REFUND_WINDOW_MS`]; games refunded already under another sanction are left out.
async fn refund_opponents(
    tx: &mut Transaction<'_, Any>,
    sanction: &SanctionId,
    player: &PlayerId,
    now: Timestamp,
) -> DbResult<()> {
    let rows = sqlx::query(
        "SELECT theirs.game_id, theirs.player_id, theirs.pool, \
            theirs.rating_before - theirs.rating_after AS points \
         FROM rating_changes mine \
         JOIN rating_changes theirs \
            ON theirs.game_id = mine.game_id AND theirs.player_id <> mine.player_id \
         WHERE mine.player_id = $1 AND mine.at >= $2 \
            AND theirs.rating_after < theirs.rating_before \
            AND NOT EXISTS (SELECT 1 FROM rating_refunds f WHERE f.game_id = theirs.game_id \
                AND f.player_id = theirs.player_id AND f.withdrawn_at IS NULL)",
    )
    .bind(player.as_str())
    .bind(now.0 - REFUND_WINDOW_MS)
    .fetch_all(&mut **tx)
    .await?;
    for row in &rows {
        let game: String = get(row, "game_id")?;
        let opponent: String = get(row, "player_id")?;
        let pool: String = get(row, "pool")?;
        let points: f64 = get(row, "points")?;
        sqlx::query(
            "INSERT INTO rating_refunds (sanction_id, player_id, game_id, pool, points, at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(sanction.as_str())
        .bind(&opponent)
        .bind(&game)
        .bind(&pool)
        .bind(points)
        .bind(now.0)
        .execute(&mut **tx)
        .await?;
        move_rating(tx, &opponent, &pool, points).await?;
    }
    Ok(())
}

/// Takes back the points sanction `id` refunded.
async fn withdraw_refunds(
    tx: &mut Transaction<'_, Any>,
    sanction: &SanctionId,
    now: Timestamp,
) -> DbResult<()> {
    let rows = sqlx::query(
        "SELECT player_id, pool, points FROM rating_refunds \
         WHERE sanction_id = $1 AND withdrawn_at IS NULL",
    )
    .bind(sanction.as_str())
    .fetch_all(&mut **tx)
    .await?;
    for row in &rows {
        let player: String = get(row, "player_id")?;
        let pool: String = get(row, "pool")?;
        move_rating(tx, &player, &pool, -get::<f64>(row, "points")?).await?;
    }
    sqlx::query(
        "UPDATE rating_refunds SET withdrawn_at = $2 \
         WHERE sanction_id = $1 AND withdrawn_at IS NULL",
    )
    .bind(sanction.as_str())
    .bind(now.0)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn move_rating(
    tx: &mut Transaction<'_, Any>,
    player: &str,
    pool: &str,
    points: f64,
) -> DbResult<()> {
    sqlx::query("UPDATE ratings SET rating = rating + $3 WHERE player_id = $1 AND pool = $2")
        .bind(player)
        .bind(pool)
        .bind(points)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Resets `player`'s public name: the account is unnamed again (its owner chooses another),
/// and its games show [`RENAMED_PLAYER`].
async fn reset_name(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
    now: Timestamp,
) -> DbResult<()> {
    sqlx::query("UPDATE accounts SET name = NULL, name_key = NULL WHERE player_id = $1")
        .bind(player.as_str())
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE players SET nickname = $2 WHERE id = $1")
        .bind(player.as_str())
        .bind(RENAMED_PLAYER)
        .execute(&mut **tx)
        .await?;
    end_name(tx, player, now).await?;
    rename_in_games(tx, player, RENAMED_PLAYER).await
}

/// Gives `player` back the public name `name` a sanction reset, when the account has not
/// chosen another and nobody else took it; its games show it again either way.
async fn restore_name(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
    name: &str,
    now: Timestamp,
) -> DbResult<()> {
    let restored = match PublicName::parse(name) {
        Ok(public) => {
            sqlx::query(
                "UPDATE accounts SET name = $2, name_key = $3 \
             WHERE player_id = $1 AND name IS NULL AND deleted_at IS NULL \
             AND NOT EXISTS (SELECT 1 FROM accounts o WHERE o.name_key = $3)",
            )
            .bind(player.as_str())
            .bind(public.as_str())
            .bind(public.key())
            .execute(&mut **tx)
            .await?
            .rows_affected()
                > 0
        }
        Err(_) => false,
    };
    if restored {
        sqlx::query("UPDATE players SET nickname = $2 WHERE id = $1")
            .bind(player.as_str())
            .bind(name)
            .execute(&mut **tx)
            .await?;
        start_name(tx, player, name, now).await?;
    }
    let shown = shown_name(tx, player).await?;
    restore_in_games(tx, player, RENAMED_PLAYER, &shown).await
}

/// Ends the span of `player`'s current public name at `now`.
async fn end_name(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
    now: Timestamp,
) -> DbResult<()> {
    sqlx::query("UPDATE name_history SET until_at = $2 WHERE player_id = $1 AND until_at IS NULL")
        .bind(player.as_str())
        .bind(now.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The name `player` goes by now.
async fn shown_name(tx: &mut Transaction<'_, Any>, player: &PlayerId) -> DbResult<String> {
    let row = sqlx::query("SELECT nickname FROM players WHERE id = $1")
        .bind(player.as_str())
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(DbError::NotFound)?;
    get(&row, "nickname")
}

const GAME_NAMES: [(&str, &str, &str); 4] = [
    ("games", "black_name", "black_id"),
    ("games", "white_name", "white_id"),
    ("rooms", "host_name", "host_id"),
    ("rooms", "guest_name", "guest_id"),
];

/// Shows `shown` for `player` in every game and room.
async fn rename_in_games(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
    shown: &str,
) -> DbResult<()> {
    for (table, name, id) in GAME_NAMES {
        sqlx::query(&format!("UPDATE {table} SET {name} = $2 WHERE {id} = $1"))
            .bind(player.as_str())
            .bind(shown)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Shows `name` for `player` again wherever `placeholder` stands for them.
async fn restore_in_games(
    tx: &mut Transaction<'_, Any>,
    player: &PlayerId,
    placeholder: &str,
    name: &str,
) -> DbResult<()> {
    for (table, column, id) in GAME_NAMES {
        sqlx::query(&format!("UPDATE {table} SET {column} = $3 WHERE {id} = $1 AND {column} = $2"))
            .bind(player.as_str())
            .bind(placeholder)
            .bind(name)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

fn report_row(row: &AnyRow) -> DbResult<ReportRow> {
    Ok(ReportRow {
        id: parse("id", &get::<String>(row, "id")?)?,
        reporter: parse_opt("reporter_id", get(row, "reporter_id")?)?,
        reporter_name: get(row, "reporter_name")?,
        target: parse("target_id", &get::<String>(row, "target_id")?)?,
        target_name: get(row, "target_name")?,
        game_id: parse_opt("game_id", get(row, "game_id")?)?,
        reason: parse("reason", &get::<String>(row, "reason")?)?,
        details: get(row, "details")?,
        evidence: get(row, "evidence")?,
        status: parse("status", &get::<String>(row, "status")?)?,
        created_at: Timestamp(get(row, "created_at")?),
        closed_at: get::<Option<i64>>(row, "closed_at")?.map(Timestamp),
    })
}

fn sanction_row(row: &AnyRow) -> DbResult<SanctionRow> {
    Ok(SanctionRow {
        id: parse("id", &get::<String>(row, "id")?)?,
        player: parse("player_id", &get::<String>(row, "player_id")?)?,
        kind: parse("kind", &get::<String>(row, "kind")?)?,
        reason: get(row, "reason")?,
        previous_name: get(row, "previous_name")?,
        created_at: Timestamp(get(row, "created_at")?),
        created_by: parse("created_by", &get::<String>(row, "created_by")?)?,
        lifted_at: get::<Option<i64>>(row, "lifted_at")?.map(Timestamp),
        lifted_by: parse_opt("lifted_by", get(row, "lifted_by")?)?,
    })
}

fn refund_row(row: &AnyRow) -> DbResult<RefundRow> {
    Ok(RefundRow {
        sanction: parse("sanction_id", &get::<String>(row, "sanction_id")?)?,
        player: parse("player_id", &get::<String>(row, "player_id")?)?,
        game_id: parse("game_id", &get::<String>(row, "game_id")?)?,
        pool: parse("pool", &get::<String>(row, "pool")?)?,
        points: get(row, "points")?,
        at: Timestamp(get(row, "at")?),
        withdrawn_at: get::<Option<i64>>(row, "withdrawn_at")?.map(Timestamp),
    })
}

fn log_row(row: &AnyRow) -> DbResult<LogRow> {
    Ok(LogRow {
        id: get(row, "id")?,
        at: Timestamp(get(row, "at")?),
        moderator: parse_opt("moderator_id", get(row, "moderator_id")?)?,
        moderator_name: get(row, "moderator_name")?,
        action: get(row, "action")?,
        target: parse_opt("target_id", get(row, "target_id")?)?,
        target_name: get(row, "target_name")?,
        subject: get(row, "subject")?,
        reason: get(row, "reason")?,
    })
}
