//! Trust and safety in the store, each story on SQLite and on PostgreSQL: moderators given by
//! the server's command, reports one at a time, sanctions that do what they say and undo it
//! when lifted, the log, blocks and the reviews' signal.

#[macro_use]
mod storage_support;

use outflank_api::accounts::PublicName;
use outflank_api::commands;
use outflank_api::domain::{
    EndReason, GameId, GameStatus, Mode, PlayerId, ReportReason, ReportStatus, SanctionKind,
    Timestamp, Winner,
};
use outflank_api::live::{Pool, RatedPlayers};
use outflank_api::storage::{
    CLOSED_ACCOUNT, DbError, FinishedGame, NewGame, NewReport, RENAMED_PLAYER, REPORTS_PER_DAY,
    ReportError, SanctionError, SeatRow, Store,
};
use outflank_engine::Board;
use storage_support::Db;

on_both_backends!(
    the_command_adds_lists_and_removes_moderators_by_name_and_logs_it,
    the_command_refuses_an_unknown_account_and_bad_words,
    a_reporter_has_one_open_report_per_target,
    a_reporter_files_at_most_ten_reports_a_day,
    an_engine_sanction_refunds_what_each_opponent_lost_in_the_last_thirty_days,
    lifting_an_engine_sanction_takes_the_refunds_back,
    an_engine_sanction_takes_the_account_off_the_leaderboard_until_lifted,
    a_sanction_closes_the_open_reports_on_the_player_as_acted_on,
    the_same_sanction_cannot_be_put_twice_nor_lifted_twice,
    a_name_sanction_resets_the_name_and_lifting_gives_it_back,
    closing_an_account_shows_it_closed_in_its_games_until_lifted,
    every_action_is_in_the_log_newest_first,
    the_reviews_signal_is_filed_once_while_open,
    blocks_are_listed_avoided_both_ways_and_lifted,
);

const T0: Timestamp = Timestamp(1_764_000_000_000);
const DAY: i64 = 24 * 60 * 60 * 1000;

async fn account(store: &Store, subject: &str, name: &str) -> PlayerId {
    let account = store.sign_in("https://issuer.example", subject, "Guest", T0).await.unwrap();
    store.set_account_name(&account.player_id, &PublicName::parse(name).unwrap()).await.unwrap();
    account.player_id
}

async fn moderator(store: &Store, name: &str) -> PlayerId {
    let id = account(store, &format!("{name}-sub"), name).await;
    store.add_moderator(&PublicName::parse(name).unwrap(), T0).await.unwrap();
    id
}

/// Runs the server's command `line`, one millisecond after the last.
async fn run(store: &Store, line: &str) -> Result<String, commands::CommandError> {
    static CALLS: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);
    let args: Vec<String> = line.split(' ').map(str::to_owned).collect();
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    commands::run(store, &args, T0.plus(n)).await
}

/// A ranked game between `black` and `white` won by `winner`, rated in the 30-s pool and
/// finished at `at`.
async fn rated_game(
    store: &Store,
    black: &PlayerId,
    white: &PlayerId,
    winner: Winner,
    at: Timestamp,
) -> GameId {
    let seat = |id: &PlayerId, name: &str| SeatRow { id: Some(id.clone()), name: name.into() };
    let game = NewGame {
        mode: Mode::Ranked,
        black: seat(black, "Black"),
        white: seat(white, "White"),
        move_time_ms: Some(30_000),
        rated: true,
        turn_started_at: Some(at),
        ..game_at(at)
    };
    store.create_game(&game).await.unwrap();
    let players = RatedPlayers { black: black.clone(), white: white.clone(), pool: Pool::Move30 };
    let end = FinishedGame {
        status: GameStatus::Finished,
        winner: Some(winner),
        end_reason: EndReason::Resignation,
        black_discs: 30,
        white_discs: 30,
        finished_at: at,
        rated: Some(players),
        review: None,
    };
    store.finish_game(&game.id, &end).await.unwrap();
    game.id
}

/// A plain untimed game made at `at`, for the fields a story does not set.
fn game_at(at: Timestamp) -> NewGame {
    let seat = |name: &str| SeatRow { id: None, name: name.into() };
    NewGame {
        id: GameId::generate(),
        mode: Mode::SameDevice,
        level: None,
        black: seat("Black"),
        white: seat("White"),
        start_position: Board::start(),
        move_time_ms: None,
        room_code: None,
        rated: false,
        created_at: at,
        turn_started_at: None,
        origin: None,
        stand_in: false,
        time_control: None,
        opening: None,
    }
}

async fn rating(store: &Store, id: &PlayerId) -> f64 {
    store.standing_in(id, Pool::Move30).await.unwrap().rating
}

fn report(reporter: &PlayerId, target: &PlayerId) -> NewReport {
    NewReport {
        reporter: reporter.clone(),
        target: target.clone(),
        target_name: "Bob".into(),
        game_id: None,
        reason: ReportReason::Engine,
        details: "every move was the best".into(),
    }
}

async fn the_command_adds_lists_and_removes_moderators_by_name_and_logs_it(db: Db) {
    let store = &db.store;
    account(store, "ann-sub", "Ann").await;
    assert_eq!(run(store, "moderators list").await.unwrap(), "no moderators\n");
    assert_eq!(run(store, "moderators add ann").await.unwrap(), "ann is now a moderator\n");
    assert_eq!(run(store, "moderators add Ann").await.unwrap(), "Ann was a moderator already\n");
    assert_eq!(run(store, "moderators list").await.unwrap(), "Ann\n");
    let ann = store.account_by_name(&PublicName::parse("Ann").unwrap()).await.unwrap();
    assert!(store.is_moderator(&ann.player_id).await.unwrap());
    assert_eq!(
        run(store, "moderators remove Ann").await.unwrap(),
        "Ann is no longer a moderator\n"
    );
    assert!(!store.is_moderator(&ann.player_id).await.unwrap());
    let log = store.moderation_log(None, 10).await.unwrap();
    let actions: Vec<&str> = log.iter().map(|entry| entry.action.as_str()).collect();
    assert_eq!(actions, ["moderator_removed", "moderator_added"]);
    assert_eq!(log[0].moderator, None);
    assert_eq!(log[0].target, Some(ann.player_id));
}

async fn the_command_refuses_an_unknown_account_and_bad_words(db: Db) {
    let store = &db.store;
    let unknown = run(store, "moderators add Nobody").await.unwrap_err();
    assert_eq!(unknown.to_string(), "there is no account called \"Nobody\"");
    assert!(matches!(
        run(store, "moderators promote Ann").await,
        Err(commands::CommandError::Usage)
    ));
    assert!(matches!(run(store, "moderators add").await, Err(commands::CommandError::Usage)));
    assert_eq!(run(store, "moderators list").await.unwrap(), "no moderators\n");
}

async fn a_reporter_has_one_open_report_per_target(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "bob-sub", "Bob").await;
    let filed = store.file_report(&report(&ann, &bob), T0).await.unwrap();
    assert_eq!(filed.status, ReportStatus::Open);
    assert_eq!(filed.reporter, Some(ann.clone()));
    let again = store.file_report(&report(&ann, &bob), T0.plus(1)).await;
    assert!(matches!(again, Err(ReportError::AlreadyOpen)), "{again:?}");
    // Once a moderator closed it, the same reporter may report again.
    let mia = moderator(store, "Mia").await;
    assert_eq!(store.dismiss_reports(&bob, &mia, "nothing found", T0.plus(2)).await.unwrap(), 1);
    assert_eq!(store.report(&filed.id).await.unwrap().status, ReportStatus::Dismissed);
    store.file_report(&report(&ann, &bob), T0.plus(3)).await.unwrap();
    assert_eq!(store.reports_by(&ann).await.unwrap().len(), 2);
}

async fn a_reporter_files_at_most_ten_reports_a_day(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    for n in 0..REPORTS_PER_DAY {
        let target = account(store, &format!("t{n}"), &format!("Target{n}")).await;
        store.file_report(&report(&ann, &target), T0.plus(n)).await.unwrap();
    }
    let one_more = account(store, "late", "Late").await;
    let refused = store.file_report(&report(&ann, &one_more), T0.plus(60_000)).await;
    assert!(matches!(refused, Err(ReportError::TooMany)), "{refused:?}");
    // A day after the first, there is room again.
    store.file_report(&report(&ann, &one_more), T0.plus(DAY + 1)).await.unwrap();
}

async fn an_engine_sanction_refunds_what_each_opponent_lost_in_the_last_thirty_days(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "bob-sub", "Bob").await;
    let carl = account(store, "carl-sub", "Carl").await;
    let mia = moderator(store, "Mia").await;
    // Ann lost to Bob 40 days ago and yesterday; Carl beat Bob yesterday.
    rated_game(store, &ann, &bob, Winner::White, T0.plus(-40 * DAY)).await;
    let recent = rated_game(store, &ann, &bob, Winner::White, T0.plus(-DAY)).await;
    rated_game(store, &carl, &bob, Winner::Black, T0.plus(-DAY)).await;
    let (ann_before, bob_before, carl_before) =
        (rating(store, &ann).await, rating(store, &bob).await, rating(store, &carl).await);
    let lost = store.game_rating(&recent).await.unwrap().unwrap().black;
    let points = lost.before - lost.after;

    let sanction = store.sanction(&bob, SanctionKind::Engine, &mia, "engine", T0).await.unwrap();

    assert!((rating(store, &ann).await - (ann_before + points)).abs() < 1e-9);
    assert_eq!(rating(store, &carl).await, carl_before, "Carl lost nothing to Bob");
    assert_eq!(rating(store, &bob).await, bob_before, "Bob's own rating is not touched");
    let refunds = store.refunds_to(&ann).await.unwrap();
    assert_eq!(refunds.len(), 1, "only the game of the last 30 days");
    assert_eq!(refunds[0].game_id, recent);
    assert_eq!(refunds[0].sanction, sanction.id);
    assert!((refunds[0].points - points).abs() < 1e-9);
    assert_eq!(store.active_sanctions(&bob).await.unwrap(), [SanctionKind::Engine]);
}

async fn lifting_an_engine_sanction_takes_the_refunds_back(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "bob-sub", "Bob").await;
    let mia = moderator(store, "Mia").await;
    rated_game(store, &ann, &bob, Winner::White, T0.plus(-DAY)).await;
    let before = rating(store, &ann).await;
    let sanction = store.sanction(&bob, SanctionKind::Engine, &mia, "engine", T0).await.unwrap();
    assert!(rating(store, &ann).await > before);

    let lifted = store.lift_sanction(&sanction.id, &mia, "mistaken", T0.plus(1)).await.unwrap();

    assert_eq!(lifted.lifted_at, Some(T0.plus(1)));
    assert_eq!(lifted.lifted_by, Some(mia));
    assert!((rating(store, &ann).await - before).abs() < 1e-9);
    assert_eq!(store.refunds_to(&ann).await.unwrap()[0].withdrawn_at, Some(T0.plus(1)));
    assert_eq!(store.active_sanctions(&bob).await.unwrap(), []);
}

async fn an_engine_sanction_takes_the_account_off_the_leaderboard_until_lifted(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "bob-sub", "Bob").await;
    let mia = moderator(store, "Mia").await;
    rated_game(store, &ann, &bob, Winner::White, T0.plus(-DAY)).await;
    let names = |rows: Vec<outflank_api::storage::LeaderboardRow>| {
        rows.into_iter().map(|row| row.name).collect::<Vec<_>>()
    };
    assert_eq!(names(store.leaderboard(Pool::Move30, 0, 10).await.unwrap()), ["Bob", "Ann"]);
    let sanction = store.sanction(&bob, SanctionKind::Engine, &mia, "engine", T0).await.unwrap();
    assert_eq!(names(store.leaderboard(Pool::Move30, 0, 10).await.unwrap()), ["Ann"]);
    assert_eq!(store.ranked_accounts(Pool::Move30).await.unwrap(), 1);
    store.lift_sanction(&sanction.id, &mia, "mistaken", T0.plus(1)).await.unwrap();
    assert_eq!(names(store.leaderboard(Pool::Move30, 0, 10).await.unwrap()), ["Bob", "Ann"]);
}

async fn a_sanction_closes_the_open_reports_on_the_player_as_acted_on(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "bob-sub", "Bob").await;
    let mia = moderator(store, "Mia").await;
    let filed = store.file_report(&report(&ann, &bob), T0).await.unwrap();
    assert_eq!(store.open_reports().await.unwrap().len(), 1);
    store.sanction(&bob, SanctionKind::Engine, &mia, "engine", T0.plus(1)).await.unwrap();
    let closed = store.report(&filed.id).await.unwrap();
    assert_eq!(closed.status, ReportStatus::ActedOn);
    assert_eq!(closed.closed_at, Some(T0.plus(1)));
    assert_eq!(store.open_reports().await.unwrap(), []);
}

async fn the_same_sanction_cannot_be_put_twice_nor_lifted_twice(db: Db) {
    let store = &db.store;
    let bob = account(store, "bob-sub", "Bob").await;
    let mia = moderator(store, "Mia").await;
    let first = store.sanction(&bob, SanctionKind::Engine, &mia, "engine", T0).await.unwrap();
    let twice = store.sanction(&bob, SanctionKind::Engine, &mia, "again", T0.plus(1)).await;
    assert!(matches!(twice, Err(SanctionError::AlreadyActive)), "{twice:?}");
    store.lift_sanction(&first.id, &mia, "mistaken", T0.plus(2)).await.unwrap();
    let again = store.lift_sanction(&first.id, &mia, "mistaken", T0.plus(3)).await;
    assert!(matches!(again, Err(SanctionError::AlreadyLifted)), "{again:?}");
    // Another kind is its own sanction; a guest has no account to sanction.
    store.sanction(&bob, SanctionKind::Closed, &mia, "abuse", T0.plus(4)).await.unwrap();
    let guest = PlayerId::generate();
    let refused = store.sanction(&guest, SanctionKind::Engine, &mia, "x", T0).await;
    assert!(matches!(refused, Err(SanctionError::Db(DbError::NotFound))), "{refused:?}");
}

async fn a_name_sanction_resets_the_name_and_lifting_gives_it_back(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "rude-sub", "Rude").await;
    let mia = moderator(store, "Mia").await;
    let game = rated_game(store, &ann, &bob, Winner::White, T0.plus(-DAY)).await;
    store
        .create_game(&NewGame {
            white: SeatRow { id: Some(bob.clone()), name: "Rude".into() },
            ..game_at(T0)
        })
        .await
        .unwrap();

    let sanction = store.sanction(&bob, SanctionKind::Name, &mia, "abusive", T0).await.unwrap();

    assert_eq!(sanction.previous_name.as_deref(), Some("Rude"));
    assert_eq!(store.account(&bob).await.unwrap().name, None, "the owner chooses another");
    assert_eq!(store.game(&game).await.unwrap().white.name, RENAMED_PLAYER);
    let rude = PublicName::parse("Rude").unwrap();
    assert!(matches!(store.account_by_name(&rude).await, Err(DbError::NotFound)));
    let names = store.name_history(&bob).await.unwrap();
    assert_eq!(names.len(), 1);
    assert_eq!((names[0].name.as_str(), names[0].until), ("Rude", Some(T0)));

    store.lift_sanction(&sanction.id, &mia, "mistaken", T0.plus(1)).await.unwrap();
    assert_eq!(store.account(&bob).await.unwrap().name.as_deref(), Some("Rude"));
    assert_eq!(store.game(&game).await.unwrap().white.name, "Rude");
    assert_eq!(store.name_history(&bob).await.unwrap().len(), 2);
}

async fn closing_an_account_shows_it_closed_in_its_games_until_lifted(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "bob-sub", "Bob").await;
    let mia = moderator(store, "Mia").await;
    let game = rated_game(store, &ann, &bob, Winner::White, T0.plus(-DAY)).await;
    let sanction = store.sanction(&bob, SanctionKind::Closed, &mia, "abuse", T0).await.unwrap();
    let row = store.game(&game).await.unwrap();
    assert_eq!((row.black.name.as_str(), row.white.name.as_str()), ("Black", CLOSED_ACCOUNT));
    assert_eq!(store.active_sanctions(&bob).await.unwrap(), [SanctionKind::Closed]);
    store.lift_sanction(&sanction.id, &mia, "appeal", T0.plus(1)).await.unwrap();
    assert_eq!(store.game(&game).await.unwrap().white.name, "Bob");
}

async fn every_action_is_in_the_log_newest_first(db: Db) {
    let store = &db.store;
    let bob = account(store, "bob-sub", "Bob").await;
    let mia = moderator(store, "Mia").await;
    let sanction =
        store.sanction(&bob, SanctionKind::Engine, &mia, "engine", T0.plus(1)).await.unwrap();
    store.lift_sanction(&sanction.id, &mia, "mistaken", T0.plus(2)).await.unwrap();
    let log = store.moderation_log(None, 10).await.unwrap();
    let lines: Vec<(&str, Option<&str>, &str)> = log
        .iter()
        .map(|entry| (entry.action.as_str(), entry.subject.as_deref(), entry.reason.as_str()))
        .collect();
    let subject = format!("engine:{}", sanction.id);
    assert_eq!(
        lines,
        [
            ("sanction_lifted", Some(subject.as_str()), "mistaken"),
            ("sanction", Some(subject.as_str()), "engine"),
            ("moderator_added", None, ""),
        ]
    );
    assert_eq!(log[0].moderator_name.as_deref(), Some("Mia"));
    assert_eq!(log[0].target_name.as_deref(), Some("Bob"));
    assert_eq!(log[0].at, T0.plus(2));
    // Paging: entries before a time.
    assert_eq!(store.moderation_log(Some(T0.plus(2)), 10).await.unwrap().len(), 2);
}

async fn the_reviews_signal_is_filed_once_while_open(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "bob-sub", "Bob").await;
    let game = rated_game(store, &ann, &bob, Winner::White, T0).await;
    assert!(store.file_signal(&bob, &game, "mean loss 0.4", "{}", T0).await.unwrap());
    assert!(!store.file_signal(&bob, &game, "mean loss 0.3", "{}", T0.plus(1)).await.unwrap());
    let open = store.open_reports().await.unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].reporter, None);
    assert_eq!(open[0].reason, ReportReason::Signal);
    assert_eq!(open[0].details, "mean loss 0.4");
    // A person's report on the same player is its own line.
    store.file_report(&report(&ann, &bob), T0).await.unwrap();
    assert_eq!(store.open_reports().await.unwrap().len(), 2);
}

async fn blocks_are_listed_avoided_both_ways_and_lifted(db: Db) {
    let store = &db.store;
    let ann = account(store, "ann-sub", "Ann").await;
    let bob = account(store, "bob-sub", "Bob").await;
    let carl = account(store, "carl-sub", "Carl").await;
    assert!(store.block(&ann, &bob, "Bob", T0).await.unwrap());
    assert!(!store.block(&ann, &bob, "Bob", T0.plus(1)).await.unwrap(), "blocked already");
    assert!(store.block(&carl, &ann, "Ann", T0.plus(2)).await.unwrap());
    let listed = store.blocks_by(&ann).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0].blocked.clone(), listed[0].name.as_str()), (bob.clone(), "Bob"));
    let mut avoided = store.avoided_by(&ann).await.unwrap();
    avoided.sort();
    let mut expected = vec![bob.clone(), carl.clone()];
    expected.sort();
    assert_eq!(avoided, expected, "whom Ann blocked and who blocked Ann");
    assert!(store.blocked_between(&bob, &ann).await.unwrap());
    assert!(!store.blocked_between(&bob, &carl).await.unwrap());
    assert!(store.unblock(&ann, &bob).await.unwrap());
    assert!(!store.unblock(&ann, &bob).await.unwrap());
    assert_eq!(store.avoided_by(&ann).await.unwrap(), [carl]);
}
