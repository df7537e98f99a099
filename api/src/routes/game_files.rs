//! A stored game as a file to download: the text record of the rules (`.txt`), or GGF
//! (`.ggf`), the format of GGS, NBoard and most Othello tools. Both say how the game was timed
//! and how it ended.

use actix_web::HttpResponse;
use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::web::{self, ServiceConfig};
use outflank_engine::record::{Conclusion, Record};
use outflank_engine::{Color, Game, GgfGame};

use super::games::{GameRouteError, parse_id};
use crate::domain::{EndReason, GameStatus, Timestamp, Winner};
use crate::live::ggs_clock;
use crate::storage::{GameRecord, GameRow, Store};

pub fn configure(config: &mut ServiceConfig) {
    config
        .route("/api/games/{id}/record", web::get().to(record))
        .route("/api/games/{id}/ggf", web::get().to(ggf));
}

/// The game `id` as stored, and its plies replayed.
async fn stored(id: &str, store: &Store) -> Result<(GameRecord, Game), GameRouteError> {
    let stored = store.load_game(&parse_id(id)?).await?;
    let game = Game::from_moves(stored.game.start_position, stored.moves.iter().map(|row| row.mv))
        .map_err(|error| GameRouteError::Unavailable(error.to_string()))?;
    Ok((stored, game))
}

fn download(body: String, content_type: &str, filename: &str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(filename.into())],
        })
        .body(body)
}

/// `GET /api/games/{id}/record`: the text record, as a `reversi-game.txt` download, with a
/// `Clock:` line for a timed game.
async fn record(
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, GameRouteError> {
    let (stored, game) = stored(&path, &store).await?;
    let record = Record::new(game).map_err(|_| GameRouteError::NotStandard)?;
    // A game that ended before the board did says how: resigned, on time, agreed, aborted.
    let record = match conclusion(&stored.game) {
        Some(conclusion) => record.with_conclusion(conclusion).unwrap_or_else(|over| *over.record),
        None => record,
    };
    let record = match stored.game.control() {
        Some(control) => record.with_clock(&control.to_string()),
        None => record,
    };
    Ok(download(record.to_string(), "text/plain; charset=utf-8", "reversi-game.txt"))
}

/// `GET /api/games/{id}/ggf`: the game in GGF, as a `reversi-game.ggf` download: players,
/// place, date, clock (`TI`, for a per-game control), result (`RE`, with GGS's `:r` for a
/// resignation, `:t` on time, `:s` for an agreed draw), start and moves.
async fn ggf(
    path: web::Path<String>,
    store: web::Data<Store>,
) -> Result<HttpResponse, GameRouteError> {
    let (stored, game) = stored(&path, &store).await?;
    let row = &stored.game;
    let mut ggf = GgfGame::new(game);
    ggf.black = Some(row.black.name.clone());
    ggf.white = Some(row.white.name.clone());
    ggf.place = Some("Outflank".to_owned());
    ggf.date = Some(ggs_date(row.created_at));
    ggf.time_control = row.control().and_then(ggs_clock::write);
    ggf.result = conclusion(row).and_then(ggs_result);
    Ok(download(format!("{ggf}\n"), "application/x-ggf; charset=utf-8", "reversi-game.ggf"))
}

/// How `game` ended, when that was not on the board.
fn conclusion(game: &GameRow) -> Option<Conclusion> {
    let winner = game.winner.and_then(|winner| match winner {
        Winner::Black => Some(Color::Black),
        Winner::White => Some(Color::White),
        Winner::Draw => None,
    });
    match (game.status, game.end_reason?) {
        (GameStatus::Aborted, _) | (_, EndReason::Aborted) => Some(Conclusion::Aborted),
        (_, EndReason::Resignation) => winner.map(|winner| Conclusion::Resignation { winner }),
        (_, EndReason::Timeout) => winner.map(|winner| Conclusion::Timeout { winner }),
        (_, EndReason::AgreedDraw) => Some(Conclusion::DrawAgreed),
        (_, EndReason::Normal) => None,
    }
}

/// GGS's `RE` for a game that ended before the board did: the whole board to the winner, with
/// `:r` (resigned) or `:t` (time out); an agreed draw is the mutual score `0.000:s`. An aborted
/// game has no result.
fn ggs_result(conclusion: Conclusion) -> Option<String> {
    let margin = |winner: Color| if winner == Color::Black { "+64.000" } else { "-64.000" };
    match conclusion {
        Conclusion::Resignation { winner } => Some(format!("{}:r", margin(winner))),
        Conclusion::Timeout { winner } => Some(format!("{}:t", margin(winner))),
        Conclusion::DrawAgreed => Some("0.000:s".to_owned()),
        Conclusion::Aborted => None,
    }
}

/// `2026.12.07_15:48:58.UTC`: a time as GGS dates its games.
fn ggs_date(at: Timestamp) -> String {
    let seconds = at.0.div_euclid(1_000);
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil_date(days);
    let (hour, minute, second) = (rest / 3_600, rest / 60 % 60, rest % 60);
    format!("{year:04}.{month:02}.{day:02}_{hour:02}:{minute:02}:{second:02}.UTC")
}

/// The Gregorian date `days` after 1970-01-01: counted in 400-year cycles of 146,097 days
/// from 1 March of year 0, so that a leap day falls at the end of its year.
fn civil_date(days: i64) -> (i64, i64, i64) {
    let from_march_0 = days + 719_468;
    let cycle = from_march_0.div_euclid(146_097);
    let day_of_cycle = from_march_0.rem_euclid(146_097);
    let year_of_cycle = (day_of_cycle - day_of_cycle / 1_460 + day_of_cycle / 36_524
        - day_of_cycle / 146_096)
        / 365;
    let day_of_year =
        day_of_cycle - (365 * year_of_cycle + year_of_cycle / 4 - year_of_cycle / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_cycle + cycle * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_ggs_writes_them_in_utc() {
        assert_eq!(ggs_date(Timestamp(0)), "1970.01.01_00:00:00.UTC");
        assert_eq!(ggs_date(Timestamp(1_765_292_400_000)), "2025.12.09_15:00:00.UTC");
        assert_eq!(ggs_date(Timestamp(951_782_400_000)), "2000.02.29_00:00:00.UTC");
        assert_eq!(ggs_date(Timestamp(1_798_761_599_999)), "2026.12.31_23:59:59.UTC");
    }

    #[test]
    fn a_game_ended_off_the_board_gives_the_whole_board_to_the_winner_with_how() {
        let resigned = Conclusion::Resignation { winner: Color::White };
        assert_eq!(ggs_result(resigned).as_deref(), Some("-64.000:r"));
        let flagged = Conclusion::Timeout { winner: Color::Black };
        assert_eq!(ggs_result(flagged).as_deref(), Some("+64.000:t"));
        assert_eq!(ggs_result(Conclusion::DrawAgreed).as_deref(), Some("0.000:s"));
        assert_eq!(ggs_result(Conclusion::Aborted), None);
    }
}
