//! What the reviews say about a player's fair play: their rated games' statistics beside
//! those of players of their rating (read from the database), and the signal that puts them
//! on the moderators' queue. A signal is never a sanction: a moderator decides.

use outflank_engine::analysis::Class;
use outflank_engine::{Color, Move};
use serde::Deserialize;

use crate::domain::{GameId, PlayerId, Timestamp};
use crate::fair_play::{self, Assessment, Band, GameStats, MoveFacts, Window};
use crate::storage::{DbResult, ReviewedGame, Store};

/// A player's newest rated games the window covers.
pub const WINDOW_GAMES: u32 = 20;
/// How far back the band's games go.
pub const BAND_PERIOD_MS: i64 = 90 * 24 * 60 * 60 * 1000;
/// The most band games read.
pub const BAND_SAMPLE: u32 = 400;

/// How far back rated pairs are counted.
pub const PAIR_PERIOD_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// Rated games between one pair, in the period, from which their record is judged.
pub const PAIR_MIN_GAMES: u32 = 5;
/// The share of a pair's games won by one side from which the pair is lopsided: rating
/// passed from one account to the other by thrown games.
pub const LOPSIDED_SHARE: f64 = 0.8;

/// Whether `wins` of `games` rated games is suspiciously one-sided.
pub fn lopsided(wins: u32, games: u32) -> bool {
    games >= PAIR_MIN_GAMES && f64::from(wins) >= LOPSIDED_SHARE * f64::from(games)
}

/// A player's statistics, as the moderator's desk shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStatistics {
    /// Their newest reviewed rated games, newest first, each with its id.
    pub games: Vec<(GameId, GameStats)>,
    pub window: Window,
    /// Players of their rating, without them.
    pub band: Band,
    /// `None` while they or the band have too few games to judge.
    pub assessment: Option<Assessment>,
}

/// What the signal reads of a stored review (`AnalysisResult`): each ply's mover, move, loss,
/// exactness and class.
#[derive(Debug, Deserialize)]
struct StoredReview {
    plies: Vec<StoredPly>,
}

#[derive(Debug, Deserialize)]
struct StoredPly {
    ply: usize,
    color: Color,
    #[serde(rename = "move")]
    mv: Move,
    loss: i32,
    exact: bool,
    class: Class,
}

/// `game`'s player's side of its review, or `None` when the stored review cannot be read.
pub fn side_stats(game: &ReviewedGame) -> Option<GameStats> {
    let review: StoredReview = serde_json::from_str(&game.review).ok()?;
    let facts: Vec<MoveFacts> = review
        .plies
        .iter()
        .filter(|ply| ply.color == game.color && ply.mv != Move::Pass)
        .map(|ply| MoveFacts {
            loss: ply.loss,
            forced: ply.class == Class::Forced,
            exact: ply.exact,
            think_ms: think_ms(game, ply.ply),
        })
        .collect();
    Some(GameStats::from_moves(&facts))
}

/// How long the mover thought over ply `ply` (1-based): from the ply before, or the start.
fn think_ms(game: &ReviewedGame, ply: usize) -> Option<i64> {
    let played = game.played_at.get(ply.checked_sub(1)?)?;
    let before = match ply {
        1 => game.started_at,
        _ => *game.played_at.get(ply - 2)?,
    };
    Some((played.0 - before.0).max(0))
}

/// `player`'s statistics at `now`, or `None` without a reviewed rated game.
///
/// # Errors
/// The database fails.
pub async fn statistics(
    store: &Store,
    player: &PlayerId,
    now: Timestamp,
) -> DbResult<Option<PlayerStatistics>> {
    let recent = store.reviewed_rated_games(player, WINDOW_GAMES).await?;
    let Some(newest) = recent.first() else {
        return Ok(None);
    };
    let games: Vec<(GameId, GameStats)> =
        recent.iter().filter_map(|game| Some((game.game_id.clone(), side_stats(game)?))).collect();
    let (low, high) = fair_play::band_of(newest.rating);
    let since = Timestamp(now.0 - BAND_PERIOD_MS);
    let band_games: Vec<GameStats> = store
        .reviewed_band_games((low, high), since, BAND_SAMPLE)
        .await?
        .iter()
        .filter(|game| &game.player != player)
        .filter_map(side_stats)
        .collect();
    let band = Band::from_games(low, high, &band_games);
    let stats: Vec<GameStats> = games.iter().map(|(_, stats)| stats.clone()).collect();
    Ok(Some(PlayerStatistics {
        window: fair_play::window(&stats),
        assessment: fair_play::assess(&stats, &band),
        band,
        games,
    }))
}

/// After the review of rated game `game_id`: each of its players whose recent games stand far
/// outside their band, or who won [`LOPSIDED_SHARE`] of [`PAIR_MIN_GAMES`] or more rated games
/// against this opponent lately, goes on the moderators' queue with the numbers (once while
/// one is open). Returns the players flagged.
///
/// # Errors
/// The database fails.
pub async fn after_review(
    store: &Store,
    game_id: &GameId,
    now: Timestamp,
) -> DbResult<Vec<PlayerId>> {
    let Some(rated) = store.game_rating(game_id).await? else {
        return Ok(Vec::new());
    };
    let mut flagged = Vec::new();
    for player in [&rated.black.player_id, &rated.white.player_id] {
        let Some(statistics) = statistics(store, player, now).await? else {
            continue;
        };
        let Some(assessment) = statistics.assessment.filter(|a| a.flagged) else {
            continue;
        };
        let evidence = serde_json::to_string(&assessment).unwrap_or_default();
        let details = assessment.reasons.join("; ");
        if store.file_signal(player, game_id, &details, &evidence, now).await? {
            flagged.push(player.clone());
        }
    }
    // A pair whose rated games go one way: the winner gains what the other throws.
    let since = Timestamp(now.0 - PAIR_PERIOD_MS);
    let sides = [
        (&rated.black.player_id, &rated.white.player_id),
        (&rated.white.player_id, &rated.black.player_id),
    ];
    for (player, opponent) in sides {
        let records = store.pair_records(player, since, PAIR_MIN_GAMES).await?;
        let Some(pair) = records.iter().find(|pair| &pair.opponent == opponent) else {
            continue;
        };
        if !lopsided(pair.wins, pair.games) {
            continue;
        }
        let details = format!(
            "won {} of {} rated games against {} in 30 days",
            pair.wins, pair.games, pair.opponent_name
        );
        let evidence = serde_json::json!({
            "pair": { "opponent": pair.opponent, "name": pair.opponent_name, "games": pair.games,
                      "wins": pair.wins, "draws": pair.draws, "losses": pair.losses },
        });
        if store.file_signal(player, game_id, &details, &evidence.to_string(), now).await? {
            flagged.push(player.clone());
        }
    }
    Ok(flagged)
}

#[cfg(test)]
mod tests {
    use outflank_engine::Square;

    use super::*;
    use crate::accounts::PublicName;
    use crate::domain::{EndReason, GameStatus, Mode, ReportReason, Winner};
    use crate::live::{Pool, RatedPlayers};
    use crate::storage::{FinishedGame, NewGame, SeatRow};

    const T0: Timestamp = Timestamp(1_764_000_000_000);

    async fn account(store: &Store, name: &str) -> PlayerId {
        let account = store.sign_in("https://issuer.example", name, "Guest", T0).await.unwrap();
        store
            .set_account_name(&account.player_id, &PublicName::parse(name).unwrap())
            .await
            .unwrap();
        account.player_id
    }

    /// A review in which every move of Black loses `black_loss` and every move of White
    /// `white_loss`, 25 moves a side, the last 10 of each exact: stored as a review is.
    fn review(black_loss: i32, white_loss: i32) -> String {
        let plies: Vec<serde_json::Value> = (1..=50)
            .map(|ply: usize| {
                let color = if ply % 2 == 1 { Color::Black } else { Color::White };
                let loss = if color == Color::Black { black_loss } else { white_loss };
                let square = Move::Place(Square::new(u8::try_from(ply).unwrap()).unwrap());
                let class = if loss == 0 { Class::Best } else { Class::for_loss(loss) };
                serde_json::json!({
                    "ply": ply, "color": color, "move": square, "value_before": 0,
                    "value_after": 0, "best": [square], "best_value": 0, "played_value": -loss,
                    "loss": loss, "exact": ply > 30, "class": class, "best_line": [],
                })
            })
            .collect();
        serde_json::json!({ "exact_from_empties": 20, "search": "depth 12", "plies": plies })
            .to_string()
    }

    /// A rated game between `black` and `white` at `at` that ends `winner`, reviewed with
    /// `review`.
    async fn rated_game(
        store: &Store,
        (black, white): (&PlayerId, &PlayerId),
        winner: Winner,
        review: &str,
        at: Timestamp,
    ) -> GameId {
        let seat = |id: &PlayerId| SeatRow { id: Some(id.clone()), name: "Someone".into() };
        let game = NewGame {
            mode: Mode::Ranked,
            black: seat(black),
            white: seat(white),
            rated: true,
            ..NewGame::on_one_device(GameId::generate(), at)
        };
        store.create_game(&game).await.unwrap();
        let players =
            RatedPlayers { black: black.clone(), white: white.clone(), pool: Pool::Move30 };
        let end = FinishedGame {
            status: GameStatus::Finished,
            winner: Some(winner),
            end_reason: EndReason::Normal,
            black_discs: 32,
            white_discs: 32,
            finished_at: at,
            rated: Some(players),
            review: None,
        };
        store.finish_game(&game.id, &end).await.unwrap();
        store.queue_analysis(&game.id, "test", None, at).await.unwrap();
        store.claim_analysis(&game.id, "node", at, at).await.unwrap().unwrap();
        store.finish_analysis(&game.id, "node", review, at).await.unwrap();
        game.id
    }

    #[tokio::test]
    async fn a_player_far_better_than_their_band_is_put_on_the_queue_once() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let others: Vec<PlayerId> = futures_util::future::join_all(
            ["Ann", "Cat", "Dan", "Eve", "Fay", "Gil"].map(|name| account(&store, name)),
        )
        .await;
        let bob = account(&store, "Bob").await;
        let mut at = T0;
        // Everyone else plays everyone else once, losing 2 to 5 discs a move: the band.
        for (i, a) in others.iter().enumerate() {
            for (j, b) in others.iter().enumerate().skip(i + 1) {
                let loss = |k: usize| i32::try_from(2 + (k + i + j) % 4).unwrap();
                rated_game(&store, (a, b), Winner::Draw, &review(loss(0), loss(1)), at).await;
                at = at.plus(60_000);
            }
        }
        // Bob draws twice with each of them, never losing a disc.
        let mut last = None;
        for other in others.iter().chain(&others) {
            let game = rated_game(&store, (&bob, other), Winner::Draw, &review(0, 3), at).await;
            last = Some(game);
            at = at.plus(60_000);
        }
        let last = last.unwrap();

        let flagged = after_review(&store, &last, at).await.unwrap();

        assert_eq!(flagged, std::slice::from_ref(&bob));
        let queue = store.open_reports().await.unwrap();
        assert_eq!(queue.len(), 1);
        assert_eq!((queue[0].target.clone(), queue[0].reason), (bob.clone(), ReportReason::Signal));
        assert_eq!(queue[0].game_id, Some(last.clone()));
        let statistics = statistics(&store, &bob, at).await.unwrap().unwrap();
        assert_eq!(statistics.window.games, 12);
        assert_eq!(statistics.window.mean_loss, 0.0);
        assert!(statistics.assessment.unwrap().flagged);
        // While it is open, the next review adds nothing.
        assert_eq!(after_review(&store, &last, at).await.unwrap(), Vec::<PlayerId>::new());
    }

    #[tokio::test]
    async fn a_pair_whose_rated_games_go_one_way_puts_the_winner_on_the_queue() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let ann = account(&store, "Ann").await;
        let bob = account(&store, "Bob").await;
        let mut last = None;
        // Five rated wins over two days (three results a day are rated between one pair).
        for n in 0..5 {
            let at = T0.plus(n * 12 * 60 * 60 * 1000);
            last = Some(rated_game(&store, (&ann, &bob), Winner::White, &review(3, 3), at).await);
        }
        let last = last.unwrap();
        let flagged = after_review(&store, &last, T0.plus(3 * 24 * 60 * 60 * 1000)).await.unwrap();
        assert_eq!(flagged, std::slice::from_ref(&bob));
        let queue = store.open_reports().await.unwrap();
        assert_eq!(queue[0].details, "won 5 of 5 rated games against Ann in 30 days");
    }

    #[test]
    fn five_games_four_of_them_won_are_lopsided_four_of_four_not_yet() {
        assert!(lopsided(4, 5));
        assert!(!lopsided(3, 5));
        assert!(!lopsided(4, 4));
    }

    #[test]
    fn think_times_run_from_the_previous_ply_or_the_start() {
        let game = ReviewedGame {
            game_id: GameId::generate(),
            player: PlayerId::generate(),
            color: Color::White,
            rating: 1200.0,
            review: String::new(),
            started_at: T0,
            played_at: vec![T0.plus(1_000), T0.plus(4_000)],
        };
        assert_eq!(think_ms(&game, 1), Some(1_000));
        assert_eq!(think_ms(&game, 2), Some(3_000));
        assert_eq!(think_ms(&game, 3), None);
        assert_eq!(think_ms(&game, 0), None);
    }
}
