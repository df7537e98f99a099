//! Accounts and Elo in the store, each story on SQLite and on PostgreSQL: sign-in creates an
//! account once, public names are unique, and a rated result moves both ratings exactly once,
//! in the transaction that finishes the game, however many games finish at the same moment.

#[macro_use]
mod storage_support;

use std::collections::HashMap;

use outflank_api::accounts::PublicName;
use outflank_api::accounts::rating::{DAY_MS, RatingChange, Score, Standing, rate};
use outflank_api::domain::{
    EndReason, GameId, GameStatus, Mode, Nickname, PlayerId, Timestamp, Winner,
};
use outflank_api::live::{Pool, RatedPlayers};
use outflank_api::storage::{
    AccountRow, DELETED_PLAYER, DbError, FinishedGame, NameError, NewGame, PoolStanding, SeatRow,
    Store,
};
use outflank_engine::{Board, Color};
use storage_support::Db;

on_both_backends!(
    a_first_sign_in_creates_an_unnamed_account_rated_1200,
    signing_in_again_finds_the_same_account,
    public_names_are_unique_whatever_their_case,
    a_public_name_that_looks_like_a_taken_one_is_taken,
    a_public_names_look_alike_finds_its_account,
    a_guests_nickname_that_looks_like_a_public_name_is_an_account_name,
    a_public_name_is_chosen_once,
    a_rated_win_between_new_accounts_moves_each_by_twenty,
    established_ratings_move_by_the_elo_formula_with_k_twenty,
    a_rated_draw_is_counted_as_a_draw,
    a_rated_game_is_rated_exactly_once,
    aborted_unrated_and_computer_games_leave_ratings_untouched,
    only_three_results_a_day_between_the_same_two_accounts_are_rated,
    deleting_an_account_and_signing_in_again_keeps_the_days_pair_cap,
    a_persons_rating_history_survives_deleting_the_account_and_signing_in_again,
    two_hundred_rated_games_finishing_at_once_equal_a_sequential_replay,
    the_leaderboard_ranks_named_rated_accounts_best_first,
    deleting_an_account_keeps_its_games_under_a_deleted_player,
    a_result_moves_the_ratings_of_its_pool_alone,
    each_pool_has_its_own_leaderboard,
    a_deleted_accounts_standings_come_back_in_every_pool,
);

const T0: Timestamp = Timestamp(1_764_000_000_000);
const ISSUER: &str = "https://issuer.example";

/// The Elo expectation, written out independently of the server's code.
fn expected(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

async fn account(store: &Store, subject: &str, name: &str) -> AccountRow {
    let account = store.sign_in(ISSUER, subject, "Guest", T0).await.unwrap();
    store.set_account_name(&account.player_id, &PublicName::parse(name).unwrap()).await.unwrap();
    store.account(&account.player_id).await.unwrap()
}

/// A live game between `black` and `white` (`None`: the computer).
async fn game(
    store: &Store,
    mode: Mode,
    rated: bool,
    black: Option<&PlayerId>,
    white: Option<&PlayerId>,
) -> GameId {
    let seat = |id: Option<&PlayerId>| SeatRow { id: id.cloned(), name: "Someone".into() };
    let game = NewGame {
        id: GameId::generate(),
        mode,
        level: None,
        black: seat(black),
        white: seat(white),
        start_position: Board::start(),
        move_time_ms: Some(30_000),
        room_code: None,
        rated,
        created_at: T0,
        turn_started_at: Some(T0),
        origin: None,
        stand_in: false,
        time_control: None,
        opening: None,
    };
    store.create_game(&game).await.unwrap();
    game.id
}

async fn ranked(store: &Store, black: &PlayerId, white: &PlayerId) -> GameId {
    game(store, Mode::Ranked, true, Some(black), Some(white)).await
}

/// A result that moves no rating.
fn result(winner: Winner) -> FinishedGame {
    FinishedGame {
        status: GameStatus::Finished,
        winner: Some(winner),
        end_reason: EndReason::Resignation,
        black_discs: 30,
        white_discs: 30,
        finished_at: T0.plus(60_000),
        rated: None,
        review: None,
    }
}

/// A result rated between `black` and `white`, in the 30-s pool.
fn rated(winner: Winner, black: &PlayerId, white: &PlayerId) -> FinishedGame {
    rated_in(Pool::Move30, winner, black, white)
}

/// A result rated between `black` and `white` in `pool`.
fn rated_in(pool: Pool, winner: Winner, black: &PlayerId, white: &PlayerId) -> FinishedGame {
    let players = RatedPlayers { black: black.clone(), white: white.clone(), pool };
    FinishedGame { rated: Some(players), ..result(winner) }
}

/// An account's standing in the 30-s pool.
async fn standing(store: &Store, id: &PlayerId) -> PoolStanding {
    store.standing_in(id, Pool::Move30).await.unwrap()
}

/// Sets an account's rating and game count in the 30-s pool directly, to start a story from
/// known ratings.
async fn set_standing(db: &Db, id: &PlayerId, rating: f64, rated_games: i32) {
    set_standing_in(db, Pool::Move30, id, rating, rated_games).await;
}

/// Sets an account's rating and game count in `pool` directly.
async fn set_standing_in(db: &Db, pool: Pool, id: &PlayerId, rating: f64, rated_games: i32) {
    let connection = sqlx::AnyPool::connect(&db.url).await.unwrap();
    sqlx::query(
        "INSERT INTO ratings (player_id, pool, rating, rated_games) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (player_id, pool) DO UPDATE \
         SET rating = excluded.rating, rated_games = excluded.rated_games",
    )
    .bind(id.as_str())
    .bind(pool.key())
    .bind(rating)
    .bind(rated_games)
    .execute(&connection)
    .await
    .unwrap();
    connection.close().await;
}

/// A player's rating changes in the 30-s pool, oldest first.
async fn history(store: &Store, id: &PlayerId) -> Vec<RatingChange> {
    store
        .rating_history(id)
        .await
        .unwrap()
        .into_iter()
        .filter(|rated| rated.pool == Pool::Move30)
        .map(|rated| rated.change)
        .collect()
}

fn close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-9, "{actual} is not {expected}");
}

async fn a_first_sign_in_creates_an_unnamed_account_rated_1200(db: Db) {
    let account = db.store.sign_in(ISSUER, "sub-1", "Ann", T0).await.unwrap();
    assert_eq!(account.name, None);
    let standings = db.store.standings(&account.player_id).await.unwrap();
    assert_eq!(standings, Pool::ALL.map(PoolStanding::new));
    assert_eq!(db.store.player(&account.player_id).await.unwrap().nickname, "Ann");
}

async fn signing_in_again_finds_the_same_account(db: Db) {
    let first = db.store.sign_in(ISSUER, "sub-1", "Ann", T0).await.unwrap();
    let again = db.store.sign_in(ISSUER, "sub-1", "Other", T0.plus(1)).await.unwrap();
    let other_issuer = db.store.sign_in("https://other.example", "sub-1", "Ann", T0).await.unwrap();
    assert_eq!(again.player_id, first.player_id);
    assert_ne!(other_issuer.player_id, first.player_id);
}

async fn public_names_are_unique_whatever_their_case(db: Db) {
    account(&db.store, "sub-1", "Ann").await;
    let bob = db.store.sign_in(ISSUER, "sub-2", "Bob", T0).await.unwrap();
    let taken = db.store.set_account_name(&bob.player_id, &PublicName::parse("aNN").unwrap()).await;
    assert!(matches!(taken, Err(NameError::Taken)), "{taken:?}");
    assert_eq!(db.store.account(&bob.player_id).await.unwrap().name, None);
}

async fn a_public_name_that_looks_like_a_taken_one_is_taken(db: Db) {
    account(&db.store, "sub-1", "Anno").await;
    let bob = db.store.sign_in(ISSUER, "sub-2", "Bob", T0).await.unwrap();
    for name in ["ANN0", "Ann0", "AnnO"] {
        let name = PublicName::parse(name).unwrap();
        let taken = db.store.set_account_name(&bob.player_id, &name).await;
        assert!(matches!(taken, Err(NameError::Taken)), "{name}: {taken:?}");
    }
    assert_eq!(db.store.account(&bob.player_id).await.unwrap().name, None);
}

async fn a_public_names_look_alike_finds_its_account(db: Db) {
    let bill = account(&db.store, "sub-1", "Bill1").await;
    let found = db.store.account_by_name(&PublicName::parse("bi1ll").unwrap()).await.unwrap();
    assert_eq!(found.player_id, bill.player_id);
    assert_eq!(found.name.as_deref(), Some("Bill1"));
}

async fn a_guests_nickname_that_looks_like_a_public_name_is_an_account_name(db: Db) {
    account(&db.store, "sub-1", "Anno").await;
    let skeleton = |nickname: &str| Nickname::parse(nickname).unwrap().skeleton();
    assert!(db.store.is_account_name(&skeleton("Ann0")).await.unwrap());
    assert!(db.store.is_account_name(&skeleton("Ånno")).await.unwrap());
    assert!(!db.store.is_account_name(&skeleton("Anna")).await.unwrap());
}

async fn a_public_name_is_chosen_once(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let again =
        db.store.set_account_name(&ann.player_id, &PublicName::parse("Anna").unwrap()).await;
    assert!(matches!(again, Err(NameError::AlreadyNamed)), "{again:?}");
    let found = db.store.account_by_name(&PublicName::parse("ANN").unwrap()).await.unwrap();
    assert_eq!(found.name.as_deref(), Some("Ann"));
    assert_eq!(db.store.player(&ann.player_id).await.unwrap().nickname, "Ann");
}

async fn a_rated_win_between_new_accounts_moves_each_by_twenty(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    let id = ranked(&db.store, &ann.player_id, &bob.player_id).await;
    let end = rated(Winner::Black, &ann.player_id, &bob.player_id);
    let rated = db.store.finish_game(&id, &end).await.unwrap().unwrap();
    assert_eq!((rated.black.before, rated.black.after), (1200.0, 1220.0));
    assert_eq!((rated.white.before, rated.white.after), (1200.0, 1180.0));
    assert_eq!((rated.black.game_number, rated.white.game_number), (1, 1));
    let ann_now = standing(&db.store, &ann.player_id).await;
    let bob_now = standing(&db.store, &bob.player_id).await;
    assert_eq!(
        (ann_now.rating, ann_now.rated_games, ann_now.wins, ann_now.losses),
        (1220.0, 1, 1, 0)
    );
    assert_eq!(
        (bob_now.rating, bob_now.rated_games, bob_now.wins, bob_now.losses),
        (1180.0, 1, 0, 1)
    );
    assert_eq!(db.store.game_rating(&id).await.unwrap(), Some(rated.clone()));
    assert_eq!(history(&db.store, &ann.player_id).await, vec![rated.black]);
}

async fn established_ratings_move_by_the_elo_formula_with_k_twenty(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    set_standing(&db, &ann.player_id, 1400.0, 30).await;
    set_standing(&db, &bob.player_id, 1250.0, 12).await;
    let id = ranked(&db.store, &bob.player_id, &ann.player_id).await;
    // Bob (Black, 1250) beats Ann (White, 1400).
    let end = rated(Winner::Black, &bob.player_id, &ann.player_id);
    let rated = db.store.finish_game(&id, &end).await.unwrap().unwrap();
    let bob_expected = expected(1250.0, 1400.0);
    close(rated.black.after, 1250.0 + 20.0 * (1.0 - bob_expected));
    close(rated.white.after, 1400.0 - 20.0 * (1.0 - bob_expected));
    assert_eq!(rated.black.game_number, 13);
    assert_eq!(rated.white.game_number, 31);
}

async fn a_rated_draw_is_counted_as_a_draw(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    set_standing(&db, &ann.player_id, 1300.0, 0).await;
    let id = ranked(&db.store, &ann.player_id, &bob.player_id).await;
    let end = rated(Winner::Draw, &ann.player_id, &bob.player_id);
    let rated = db.store.finish_game(&id, &end).await.unwrap().unwrap();
    let e = expected(1300.0, 1200.0);
    close(rated.black.after, 1300.0 + 40.0 * (0.5 - e));
    close(rated.white.after, 1200.0 + 40.0 * (e - 0.5));
    let ann = standing(&db.store, &ann.player_id).await;
    assert_eq!((ann.wins, ann.draws, ann.losses), (0, 1, 0));
}

async fn a_rated_game_is_rated_exactly_once(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    let id = ranked(&db.store, &ann.player_id, &bob.player_id).await;
    db.store.finish_game(&id, &rated(Winner::Black, &ann.player_id, &bob.player_id)).await.unwrap();
    let again =
        db.store.finish_game(&id, &rated(Winner::White, &ann.player_id, &bob.player_id)).await;
    assert!(matches!(again, Err(DbError::Conflict)), "{again:?}");
    assert_eq!(standing(&db.store, &ann.player_id).await.rating, 1220.0);
    assert_eq!(standing(&db.store, &bob.player_id).await.rating, 1180.0);
}

async fn aborted_unrated_and_computer_games_leave_ratings_untouched(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    let aborted = ranked(&db.store, &ann.player_id, &bob.player_id).await;
    let abort = FinishedGame {
        status: GameStatus::Aborted,
        winner: None,
        end_reason: EndReason::Aborted,
        ..rated(Winner::Black, &ann.player_id, &bob.player_id)
    };
    assert_eq!(db.store.finish_game(&aborted, &abort).await.unwrap(), None);
    let quick = game(&db.store, Mode::Quick, false, Some(&ann.player_id), Some(&bob.player_id));
    let quick = quick.await;
    assert_eq!(db.store.finish_game(&quick, &result(Winner::Black)).await.unwrap(), None);
    let computer = game(&db.store, Mode::Computer, false, Some(&ann.player_id), None).await;
    assert_eq!(db.store.finish_game(&computer, &result(Winner::Black)).await.unwrap(), None);
    for id in [&ann.player_id, &bob.player_id] {
        assert_eq!(db.store.standings(id).await.unwrap(), Pool::ALL.map(PoolStanding::new));
        assert_eq!(db.store.rating_history(id).await.unwrap(), vec![]);
    }
}

async fn only_three_results_a_day_between_the_same_two_accounts_are_rated(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    let mut rated_results = Vec::new();
    for hours in [0, 1, 2, 3, 25] {
        let id = ranked(&db.store, &ann.player_id, &bob.player_id).await;
        let end = FinishedGame {
            finished_at: T0.plus(hours * 3_600_000),
            ..rated(Winner::Black, &ann.player_id, &bob.player_id)
        };
        rated_results.push(db.store.finish_game(&id, &end).await.unwrap().is_some());
    }
    // The fourth within a day is not rated; a day after the first, the window has moved on.
    assert_eq!(rated_results, [true, true, true, false, true]);
    assert_eq!(standing(&db.store, &ann.player_id).await.rated_games, 4);
}

async fn deleting_an_account_and_signing_in_again_keeps_the_days_pair_cap(db: Db) {
    let mut ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    let mut rated_results = Vec::new();
    for minutes in [0, 1, 2, 3] {
        if minutes == 3 {
            // The same person, under a new account: a new player id with the old standing.
            db.store.delete_account(&ann.player_id, T0.plus(150_000)).await.unwrap();
            let again = db.store.sign_in(ISSUER, "sub-1", "Ann", T0.plus(160_000)).await.unwrap();
            assert_ne!(again.player_id, ann.player_id);
            ann = again;
        }
        let id = ranked(&db.store, &ann.player_id, &bob.player_id).await;
        let end = FinishedGame {
            finished_at: T0.plus(minutes * 60_000),
            ..rated(Winner::Black, &ann.player_id, &bob.player_id)
        };
        rated_results.push(db.store.finish_game(&id, &end).await.unwrap().is_some());
    }
    assert_eq!(rated_results, [true, true, true, false]);
    assert_eq!(standing(&db.store, &bob.player_id).await.rated_games, 3);
}

async fn a_persons_rating_history_survives_deleting_the_account_and_signing_in_again(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    let first = ranked(&db.store, &ann.player_id, &bob.player_id).await;
    let end = rated(Winner::Black, &ann.player_id, &bob.player_id);
    db.store.finish_game(&first, &end).await.unwrap();
    db.store.delete_account(&ann.player_id, T0.plus(150_000)).await.unwrap();
    let again = db.store.sign_in(ISSUER, "sub-1", "Ann", T0.plus(160_000)).await.unwrap();
    let second = ranked(&db.store, &again.player_id, &bob.player_id).await;
    let end = FinishedGame {
        finished_at: T0.plus(170_000),
        ..rated(Winner::White, &again.player_id, &bob.player_id)
    };
    db.store.finish_game(&second, &end).await.unwrap();

    let history = history(&db.store, &again.player_id).await;
    let games: Vec<(GameId, u32)> =
        history.iter().map(|change| (change.game_id.clone(), change.game_number)).collect();
    assert_eq!(games, [(first, 1), (second, 2)]);
    assert_eq!(history[1].before, history[0].after);
    // Bob's history is his alone.
    assert_eq!(db.store.rating_history(&bob.player_id).await.unwrap().len(), 2);
}

async fn two_hundred_rated_games_finishing_at_once_equal_a_sequential_replay(db: Db) {
    const PLAYERS: usize = 12;
    const GAMES: usize = 200;
    let mut players = Vec::new();
    for n in 0..PLAYERS {
        players
            .push(account(&db.store, &format!("sub-{n}"), &format!("Player{n}")).await.player_id);
    }
    // A fixed, varied schedule: pairs and results from a small linear congruential sequence.
    let mut seed: u64 = 12_345;
    let mut next = move |bound: usize| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(seed >> 33).unwrap() % bound
    };
    let mut games = Vec::new();
    for _ in 0..GAMES {
        let black = next(PLAYERS);
        let white = (black + 1 + next(PLAYERS - 1)) % PLAYERS;
        let winner = [Winner::Black, Winner::White, Winner::Draw][next(3)];
        let id = ranked(&db.store, &players[black], &players[white]).await;
        // Each on a day of its own, so that no pair reaches the daily cap.
        let day = i64::try_from(games.len()).unwrap() * DAY_MS;
        let end = FinishedGame {
            finished_at: T0.plus(day),
            ..rated(winner, &players[black], &players[white])
        };
        games.push((id, winner, end));
    }
    let finishing: Vec<_> = games
        .iter()
        .map(|(id, _, end)| {
            let store = db.store.clone();
            let (id, end) = (id.clone(), end.clone());
            tokio::spawn(async move { store.finish_game(&id, &end).await })
        })
        .collect();
    for task in finishing {
        assert!(task.await.unwrap().unwrap().is_some());
    }

    // Every game was rated, each player's games numbered 1, 2, 3… in the order they counted.
    let mut changes: HashMap<GameId, Vec<RatingChange>> = HashMap::new();
    for id in &players {
        let history = history(&db.store, id).await;
        let numbers: Vec<u32> = history.iter().map(|change| change.game_number).collect();
        assert_eq!(numbers, (1..=u32::try_from(history.len()).unwrap()).collect::<Vec<_>>());
        for change in history {
            changes.entry(change.game_id.clone()).or_default().push(change);
        }
    }
    assert_eq!(changes.len(), GAMES);

    // Replay the games one at a time, in an order consistent with every player's numbering.
    let mut standing: HashMap<PlayerId, Standing> =
        players.iter().map(|id| (id.clone(), Standing::NEW)).collect();
    let mut pending: Vec<(GameId, Winner)> =
        games.iter().map(|(id, winner, _)| (id.clone(), *winner)).collect();
    while !pending.is_empty() {
        let position = pending
            .iter()
            .position(|(id, _)| {
                changes[id]
                    .iter()
                    .all(|change| change.game_number == standing[&change.player_id].rated_games + 1)
            })
            .expect("some game is next for both of its players");
        let (id, winner) = pending.remove(position);
        let side = |color| changes[&id].iter().find(|change| change.color == color).unwrap();
        let (black, white) = (side(Color::Black), side(Color::White));
        let score = match winner {
            Winner::Black => Score::Win,
            Winner::White => Score::Loss,
            Winner::Draw => Score::Draw,
        };
        let before = (standing[&black.player_id], standing[&white.player_id]);
        let (black_after, white_after) = rate(before.0, before.1, score);
        assert_eq!((black.before, black.after), (before.0.rating, black_after));
        assert_eq!((white.before, white.after), (before.1.rating, white_after));
        for (change, after) in [(black, black_after), (white, white_after)] {
            let entry = standing.get_mut(&change.player_id).unwrap();
            *entry = Standing { rating: after, rated_games: entry.rated_games + 1 };
        }
    }
    for id in &players {
        let stored = db.store.standing_in(id, Pool::Move30).await.unwrap();
        assert_eq!(stored.rating, standing[id].rating);
        assert_eq!(stored.rated_games, standing[id].rated_games);
        assert_eq!(stored.wins + stored.draws + stored.losses, stored.rated_games);
    }
}

async fn the_leaderboard_ranks_named_rated_accounts_best_first(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    let cat = account(&db.store, "sub-3", "Cat").await;
    let unnamed = db.store.sign_in(ISSUER, "sub-4", "Dan", T0).await.unwrap();
    let _idle = account(&db.store, "sub-5", "Eve").await;
    for (id, rating) in [(&ann, 1300.0), (&bob, 1400.0), (&cat, 1300.0)] {
        set_standing(&db, &id.player_id, rating, 5).await;
    }
    set_standing(&db, &unnamed.player_id, 1500.0, 5).await;
    set_standing(&db, &cat.player_id, 1300.0, 7).await;

    let board = db.store.leaderboard(Pool::Move30, 0, 10).await.unwrap();
    let names: Vec<_> = board.iter().map(|row| row.name.as_str()).collect();
    assert_eq!(names, ["Bob", "Cat", "Ann"]);
    assert_eq!(db.store.ranked_accounts(Pool::Move30).await.unwrap(), 3);
    assert_eq!(db.store.leaderboard(Pool::Move30, 1, 1).await.unwrap()[0].name, "Cat");
    let ann_standing = standing(&db.store, &ann.player_id).await;
    assert_eq!(db.store.rank(Some("Ann"), &ann_standing).await.unwrap(), Some(3));
    let eve = db.store.account_by_name(&PublicName::parse("Eve").unwrap()).await.unwrap();
    let eve_standing = standing(&db.store, &eve.player_id).await;
    assert_eq!(db.store.rank(Some("Eve"), &eve_standing).await.unwrap(), None);
}

async fn deleting_an_account_keeps_its_games_under_a_deleted_player(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    let id = ranked(&db.store, &ann.player_id, &bob.player_id).await;
    db.store.finish_game(&id, &rated(Winner::Black, &ann.player_id, &bob.player_id)).await.unwrap();

    db.store.delete_account(&ann.player_id, T0.plus(1)).await.unwrap();

    assert!(matches!(db.store.account(&ann.player_id).await, Err(DbError::NotFound)));
    let game = db.store.load_game(&id).await.unwrap().game;
    assert_eq!(game.black.name, DELETED_PLAYER);
    assert_eq!(game.black.id, Some(ann.player_id.clone()));
    assert_eq!(db.store.leaderboard(Pool::Move30, 0, 10).await.unwrap().len(), 1);
    // The name is free again, and signing in again starts a new account.
    let again = db.store.sign_in(ISSUER, "sub-1", "Ann", T0.plus(2)).await.unwrap();
    assert_ne!(again.player_id, ann.player_id);
    let name = PublicName::parse("Ann").unwrap();
    db.store.set_account_name(&again.player_id, &name).await.unwrap();
    assert!(matches!(db.store.delete_account(&ann.player_id, T0).await, Err(DbError::NotFound)));
}

async fn a_result_moves_the_ratings_of_its_pool_alone(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    set_standing(&db, &ann.player_id, 1500.0, 20).await;
    let id = ranked(&db.store, &ann.player_id, &bob.player_id).await;
    let end = rated_in(Pool::Blitz, Winner::Black, &ann.player_id, &bob.player_id);
    let rated = db.store.finish_game(&id, &end).await.unwrap().unwrap();
    // Both start the blitz pool at 1,200 and provisional, whatever Ann's 30-s rating.
    assert_eq!((rated.black.before, rated.black.after), (1200.0, 1220.0));
    assert_eq!((rated.black.game_number, rated.white.game_number), (1, 1));
    let ann_blitz = db.store.standing_in(&ann.player_id, Pool::Blitz).await.unwrap();
    assert_eq!((ann_blitz.rating, ann_blitz.rated_games, ann_blitz.wins), (1220.0, 1, 1));
    let ann_30s = standing(&db.store, &ann.player_id).await;
    assert_eq!((ann_30s.rating, ann_30s.rated_games), (1500.0, 20));
    let pools: Vec<Pool> = db
        .store
        .rating_history(&ann.player_id)
        .await
        .unwrap()
        .iter()
        .map(|rated| rated.pool)
        .collect();
    assert_eq!(pools, [Pool::Blitz]);
}

async fn each_pool_has_its_own_leaderboard(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    let bob = account(&db.store, "sub-2", "Bob").await;
    set_standing(&db, &ann.player_id, 1300.0, 5).await;
    set_standing(&db, &bob.player_id, 1400.0, 5).await;
    set_standing_in(&db, Pool::Rapid, &ann.player_id, 1350.0, 3).await;

    let rapid = db.store.leaderboard(Pool::Rapid, 0, 10).await.unwrap();
    let names: Vec<_> = rapid.iter().map(|row| row.name.as_str()).collect();
    assert_eq!(names, ["Ann"]);
    assert_eq!(rapid[0].standing.rating, 1350.0);
    assert_eq!(db.store.ranked_accounts(Pool::Rapid).await.unwrap(), 1);
    assert_eq!(db.store.ranked_accounts(Pool::Move30).await.unwrap(), 2);
    assert_eq!(db.store.ranked_accounts(Pool::Daily).await.unwrap(), 0);
    let ann_rapid = db.store.standing_in(&ann.player_id, Pool::Rapid).await.unwrap();
    assert_eq!(db.store.rank(Some("Ann"), &ann_rapid).await.unwrap(), Some(1));
}

async fn a_deleted_accounts_standings_come_back_in_every_pool(db: Db) {
    let ann = account(&db.store, "sub-1", "Ann").await;
    set_standing(&db, &ann.player_id, 1300.0, 12).await;
    set_standing_in(&db, Pool::Daily, &ann.player_id, 1111.0, 4).await;
    db.store.delete_account(&ann.player_id, T0.plus(1)).await.unwrap();

    let again = db.store.sign_in(ISSUER, "sub-1", "Ann", T0.plus(2)).await.unwrap();
    let standings = db.store.standings(&again.player_id).await.unwrap();
    let kept: Vec<(Pool, f64, u32)> = standings
        .iter()
        .map(|standing| (standing.pool, standing.rating, standing.rated_games))
        .collect();
    assert_eq!(
        kept,
        [
            (Pool::Move30, 1300.0, 12),
            (Pool::Blitz, 1200.0, 0),
            (Pool::Rapid, 1200.0, 0),
            (Pool::Daily, 1111.0, 4),
            (Pool::Xot, 1200.0, 0)
        ]
    );
}
