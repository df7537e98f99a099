//! The store's behaviour, one story per rule, each run on SQLite (`sqlite::…`) and on PostgreSQL
//! (`postgres::…`, from `TEST_DATABASE_URL`; see `storage_support`).

#[macro_use]
mod storage_support;

use outflank_api::accounts::PublicName;
use outflank_api::domain::{
    ClientKey, EndReason, GameId, GameStatus, Mode, PlayerId, PuzzleId, RoomCode, Timestamp, Winner,
};
use outflank_api::live::TimeControl;
use outflank_api::storage::{
    AnalysisRequester, AnalysisRow, AnalysisStatus, Backend, DbError, FinishedGame, GameRecord,
    GameRow, GameSource, InProgress, MoveRow, NewGame, NewRoom, OpenAnalyses, PuzzleCounts,
    PuzzleRow, QueuedAnalysis, Revocation, RoomGame, RoomMember, RoomRow, SeatRow, SeatStanding,
    Store,
};
use outflank_engine::ai::Level;
use outflank_engine::{Board, Move, Square};
use sqlx::Executor;
use storage_support::Db;

on_both_backends!(
    a_game_is_created_with_its_plies_and_as_its_rooms_game_at_once,
    a_game_for_an_unknown_room_is_not_created_at_all,
    a_guest_is_stored_and_renaming_keeps_when_it_was_created,
    an_unknown_player_is_not_found,
    connecting_again_runs_no_migration_and_keeps_the_data,
    a_reachable_database_answers_ping,
    a_created_game_reads_back_exactly,
    a_game_reads_back_without_its_moves,
    a_players_live_games_against_people_or_the_computer_come_with_ply_counts_newest_first,
    whether_a_game_exists_is_answered_without_reading_its_row,
    creating_a_game_with_a_taken_id_is_a_conflict,
    an_unknown_game_is_not_found_by_any_method,
    moves_read_back_in_order_with_passes,
    appending_the_same_ply_twice_is_a_conflict,
    skipping_a_ply_is_a_conflict,
    concurrent_appends_of_one_ply_store_exactly_one,
    moves_of_many_games_at_once_all_land_and_a_refused_one_fails_alone,
    truncating_removes_the_later_plies,
    a_game_finishes_exactly_once,
    a_games_client_is_kept_while_it_is_live_and_forgotten_when_it_ends,
    games_in_progress_are_counted_by_player_and_by_client_for_one_mode,
    an_ended_game_takes_no_more_writes,
    a_game_cannot_finish_as_live,
    a_move_and_its_forced_pass_are_stored_together_and_start_the_clock,
    live_timed_games_are_the_live_ones_with_a_clock_and_their_moves,
    recent_games_are_a_players_ended_games_newest_first,
    an_imported_game_is_marked_imported_and_left_out_of_recent_games,
    a_continued_records_plies_are_counted_until_taken_back,
    a_created_room_reads_back_exactly,
    creating_a_room_with_a_taken_code_is_a_conflict,
    an_unknown_room_is_not_found_by_any_method,
    a_second_guest_cannot_join_a_room,
    racing_guests_leave_exactly_one_in_the_room,
    a_room_counts_its_games,
    a_rooms_first_game_is_refused_once_it_has_one,
    a_rematch_is_refused_unless_it_follows_the_rooms_current_game,
    racing_first_games_of_a_room_store_exactly_one,
    the_first_stored_setting_wins,
    racing_nodes_agree_on_a_setting,
    corrupt_stored_text_is_an_error_not_a_panic,
    abandoned_games_without_a_clock_are_aborted_and_timed_ones_left,
    the_last_opponent_is_the_other_player_of_the_newest_quick_or_ranked_game,
    session_revocations_read_back_and_a_later_one_wins,
    a_revocation_is_deleted_once_it_has_expired,
    storing_a_revocation_deletes_those_expired_by_then,
    games_in_progress_are_the_timed_live_ones_and_the_untimed_ones_touched_lately,
    the_players_in_games_in_progress_are_each_person_seated_once,
    watchable_games_are_the_live_quick_and_ranked_ones_best_rated_first,
    recent_results_are_finished_quick_and_ranked_games_newest_first,
    a_finished_game_is_created_with_its_plies_and_result_at_once,
    an_analysis_is_queued_once_and_again_only_after_a_failure_or_for_another_engine,
    a_game_that_finishes_with_a_result_has_its_review_queued_in_the_same_write,
    an_aborted_game_has_no_review_queued,
    an_imported_games_review_is_not_queued_with_its_end,
    racing_nodes_claim_an_analysis_exactly_once_and_a_stale_claim_is_taken_over,
    only_the_node_holding_the_claim_writes_progress_and_the_result,
    a_players_open_analyses_are_counted_and_unknown_games_not_found,
    an_addresss_open_analyses_are_counted_and_the_address_forgotten_at_the_end,
    claimable_analyses_are_those_of_games_from_the_source_asked_for,
    puzzles_are_added_once_and_read_back_exactly,
    a_players_puzzles_come_unsolved_first_then_by_loss_then_newest_with_their_counts,
    only_the_puzzles_player_answers_and_the_first_right_answer_solves_it,
);

const T0: Timestamp = Timestamp(1_764_000_000_000);

/// A distinct valid player id for each `n` below 50.
fn player(n: usize) -> PlayerId {
    let letters = "23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
    let letter = letters.chars().nth(n).expect("n below the alphabet's length");
    format!("guestguestguest{letter}").parse().expect("a valid player id")
}

fn new_game() -> NewGame {
    NewGame {
        id: GameId::generate(),
        mode: Mode::Friend,
        level: None,
        black: SeatRow { id: Some(player(1)), name: "Ann".into() },
        white: SeatRow { id: Some(player(2)), name: "Bob".into() },
        start_position: Board::start(),
        move_time_ms: Some(30_000),
        room_code: None,
        rated: false,
        created_at: T0,
        turn_started_at: Some(T0),
        origin: None,
        stand_in: false,
        time_control: None,
        opening: None,
    }
}

/// The row `create_game` should have written for `game`.
fn created(game: &NewGame) -> GameRow {
    GameRow {
        id: game.id.clone(),
        mode: game.mode,
        level: game.level,
        black: game.black.clone(),
        white: game.white.clone(),
        status: GameStatus::Live,
        winner: None,
        end_reason: None,
        black_discs: None,
        white_discs: None,
        start_position: game.start_position,
        move_time_ms: game.move_time_ms,
        room_code: game.room_code.clone(),
        rated: game.rated,
        created_at: game.created_at,
        updated_at: game.created_at,
        finished_at: None,
        turn_started_at: game.turn_started_at,
        origin: game.origin,
        stand_in: game.stand_in,
        time_control: game.time_control,
        opening: game.opening,
    }
}

/// `game`'s row as read back after plies played up to `last`: changed then, and its clock, if
/// it has one, running since then.
fn moved(game: &NewGame, last: Timestamp) -> GameRow {
    let turn_started_at = game.turn_started_at.map(|_| last);
    GameRow { updated_at: last, turn_started_at, ..created(game) }
}

fn finished(at: Timestamp) -> FinishedGame {
    FinishedGame {
        status: GameStatus::Finished,
        winner: Some(Winner::Black),
        end_reason: EndReason::Normal,
        black_discs: 13,
        white_discs: 0,
        finished_at: at,
        rated: None,
        review: None,
    }
}

fn place(square: &str) -> Move {
    Move::Place(square.parse::<Square>().expect("a square"))
}

/// Stores `game` and its moves `d3 c3 b3 …`, one second apart.
async fn create_with_moves(store: &Store, game: &NewGame, moves: &[Move]) -> Vec<MoveRow> {
    store.create_game(game).await.unwrap();
    let mut rows = Vec::new();
    for (ply, &mv) in (0u32..).zip(moves) {
        let played_at = game.created_at.plus(1_000 * (i64::from(ply) + 1));
        store.append_move(&game.id, ply, mv, played_at).await.unwrap();
        rows.push(MoveRow { ply, mv, played_at });
    }
    rows
}

fn new_room() -> NewRoom {
    NewRoom {
        code: RoomCode::generate(),
        host: RoomMember { id: player(1), name: "Ann".into() },
        created_at: T0,
        expires_at: T0.plus(24 * 60 * 60 * 1_000),
        time_control: None,
        xot: false,
    }
}

fn assert_conflict<T: std::fmt::Debug>(result: Result<T, DbError>) {
    assert!(matches!(result, Err(DbError::Conflict)), "expected a conflict, got {result:?}");
}

fn assert_not_found<T: std::fmt::Debug>(result: Result<T, DbError>) {
    assert!(matches!(result, Err(DbError::NotFound)), "expected not found, got {result:?}");
}

async fn connecting_again_runs_no_migration_and_keeps_the_data(db: Db) {
    let game = new_game();
    db.store.create_game(&game).await.unwrap();
    for _ in 0..2 {
        let again = Store::connect(&db.url).await.expect("connecting to a migrated database");
        assert_eq!(again.load_game(&game.id).await.unwrap().game, created(&game));
        again.close().await;
    }
}

async fn a_reachable_database_answers_ping(db: Db) {
    db.store.ping().await.unwrap();
    let expected = if db.url.starts_with("sqlite") { Backend::Sqlite } else { Backend::Postgres };
    assert_eq!(db.store.backend(), expected);
}

async fn a_created_game_reads_back_exactly(db: Db) {
    let friend = new_game();
    let imported = NewGame {
        mode: Mode::Computer,
        level: Some(Level::HARD),
        white: SeatRow { id: None, name: "Computer (Hard)".into() },
        start_position: format!("{}{}{} O", "X".repeat(8), "O".repeat(8), "-".repeat(48))
            .parse()
            .unwrap(),
        move_time_ms: None,
        room_code: Some(RoomCode::generate()),
        rated: true,
        turn_started_at: None,
        origin: Some(client("2001:db8:5:6:7:8:9:a")),
        stand_in: true,
        time_control: Some("3+2".parse().unwrap()),
        opening: Some("d3 c5 f6 f5 g6 g7 h8 g5".parse().unwrap()),
        ..new_game()
    };
    for game in [&friend, &imported] {
        db.store.create_game(game).await.unwrap();
        let record = db.store.load_game(&game.id).await.unwrap();
        assert_eq!(record, GameRecord { game: created(game), moves: vec![] });
    }
}

async fn a_players_live_games_against_people_or_the_computer_come_with_ply_counts_newest_first(
    db: Db,
) {
    let older = new_game();
    let newer = NewGame { mode: Mode::Quick, created_at: T0.plus(10_000), ..new_game() };
    let over = NewGame { created_at: T0.plus(20_000), ..new_game() };
    let computer = computer_game(1, T0.plus(30_000));
    let others = NewGame {
        black: SeatRow { id: Some(player(3)), name: "Cy".into() },
        created_at: T0.plus(40_000),
        ..new_game()
    };
    create_with_moves(&db.store, &older, &[place("d3")]).await;
    create_with_moves(&db.store, &newer, &[place("d3"), place("c3"), place("b3")]).await;
    for game in [&over, &computer, &others] {
        db.store.create_game(game).await.unwrap();
    }
    db.store.finish_game(&over.id, &finished(T0.plus(25_000))).await.unwrap();
    let listed: Vec<(GameId, u32)> = db
        .store
        .live_games_of(&player(1), 10)
        .await
        .unwrap()
        .into_iter()
        .map(|(game, plies)| (game.id, plies))
        .collect();
    let expected = vec![(computer.id.clone(), 0), (newer.id.clone(), 3), (older.id.clone(), 1)];
    assert_eq!(listed, expected);
    assert_eq!(db.store.live_games_of(&player(1), 1).await.unwrap().len(), 1);
}

async fn a_game_reads_back_without_its_moves(db: Db) {
    let game = new_game();
    let moves = create_with_moves(&db.store, &game, &[place("d3"), place("c3")]).await;
    let last = moves.last().unwrap().played_at;
    let row = db.store.game(&game.id).await.unwrap();
    assert_eq!(row, moved(&game, last));
    assert_eq!(row, db.store.load_game(&game.id).await.unwrap().game);
}

async fn whether_a_game_exists_is_answered_without_reading_its_row(db: Db) {
    let game = new_game();
    db.store.create_game(&game).await.unwrap();
    assert!(!db.store.game_exists(&GameId::generate()).await.unwrap());
    assert!(db.store.game_exists(&game.id).await.unwrap());

    sqlx::any::install_default_drivers();
    let raw = sqlx::AnyPool::connect(&db.url).await.unwrap();
    raw.execute(
        sqlx::query("UPDATE games SET mode = 'chess' WHERE id = $1").bind(game.id.as_str()),
    )
    .await
    .unwrap();
    raw.close().await;
    assert!(matches!(db.store.game(&game.id).await, Err(DbError::Other(_))));
    assert!(db.store.game_exists(&game.id).await.unwrap());
}

async fn creating_a_game_with_a_taken_id_is_a_conflict(db: Db) {
    let game = new_game();
    db.store.create_game(&game).await.unwrap();
    let again = NewGame { mode: Mode::Quick, ..game.clone() };
    assert_conflict(db.store.create_game(&again).await);
    assert_eq!(db.store.load_game(&game.id).await.unwrap().game, created(&game));
}

async fn an_unknown_game_is_not_found_by_any_method(db: Db) {
    let id = GameId::generate();
    assert_not_found(db.store.load_game(&id).await);
    assert_not_found(db.store.game(&id).await);
    assert_not_found(db.store.append_move(&id, 0, place("d3"), T0).await);
    assert_not_found(db.store.truncate_moves(&id, 0).await);
    assert_not_found(db.store.finish_game(&id, &finished(T0)).await);
}

async fn moves_read_back_in_order_with_passes(db: Db) {
    let game = new_game();
    let line: Vec<Move> = ["d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1"]
        .into_iter()
        .map(place)
        .chain([Move::Pass, place("e3")])
        .collect();
    let moves = create_with_moves(&db.store, &game, &line).await;
    let record = db.store.load_game(&game.id).await.unwrap();
    let last = moves.last().unwrap().played_at;
    assert_eq!(record, GameRecord { game: moved(&game, last), moves });
}

async fn appending_the_same_ply_twice_is_a_conflict(db: Db) {
    let game = new_game();
    let moves = create_with_moves(&db.store, &game, &[place("d3")]).await;
    assert_conflict(db.store.append_move(&game.id, 0, place("c4"), T0.plus(5_000)).await);
    assert_eq!(db.store.load_game(&game.id).await.unwrap().moves, moves);
}

async fn skipping_a_ply_is_a_conflict(db: Db) {
    let game = new_game();
    db.store.create_game(&game).await.unwrap();
    assert_conflict(db.store.append_move(&game.id, 1, place("d3"), T0).await);
    assert_eq!(db.store.load_game(&game.id).await.unwrap().moves, vec![]);
}

async fn concurrent_appends_of_one_ply_store_exactly_one(db: Db) {
    let game = new_game();
    db.store.create_game(&game).await.unwrap();
    let squares = ["d3", "c4", "f5", "e6", "d3", "c4", "f5", "e6", "d3", "c4"];
    let tasks: Vec<_> = squares
        .into_iter()
        .map(|square| {
            let (store, id) = (db.store.clone(), game.id.clone());
            tokio::spawn(
                async move { (square, store.append_move(&id, 0, place(square), T0).await) },
            )
        })
        .collect();
    let mut winners = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            (square, Ok(())) => winners.push(square),
            (_, Err(DbError::Conflict)) => {}
            (_, Err(error)) => panic!("a racing append failed with {error}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one append wins: {winners:?}");
    let expected = vec![MoveRow { ply: 0, mv: place(winners[0]), played_at: T0 }];
    assert_eq!(db.store.load_game(&game.id).await.unwrap().moves, expected);
}

async fn moves_of_many_games_at_once_all_land_and_a_refused_one_fails_alone(db: Db) {
    let games: Vec<NewGame> = (0..60).map(|_| new_game()).collect();
    for game in &games {
        db.store.create_game(game).await.unwrap();
    }
    // Every game's first move at once, and, in the same burst, a stale second move of game 0.
    let mut tasks: Vec<_> = games
        .iter()
        .map(|game| {
            let (store, id) = (db.store.clone(), game.id.clone());
            tokio::spawn(async move { store.append_move(&id, 0, place("d3"), T0).await })
        })
        .collect();
    let (store, id) = (db.store.clone(), games[0].id.clone());
    let stale = tokio::spawn(async move { store.append_move(&id, 5, place("c3"), T0).await });
    for task in tasks.drain(..) {
        task.await.unwrap().unwrap();
    }
    assert_conflict(stale.await.unwrap());
    for game in &games {
        let expected = vec![MoveRow { ply: 0, mv: place("d3"), played_at: T0 }];
        assert_eq!(db.store.load_game(&game.id).await.unwrap().moves, expected);
    }
}

async fn truncating_removes_the_later_plies(db: Db) {
    let game = NewGame { mode: Mode::Computer, move_time_ms: None, ..new_game() };
    let line = ["d3", "c3", "b3", "b2", "f5"].map(place);
    let moves = create_with_moves(&db.store, &game, &line).await;
    assert_eq!(db.store.truncate_moves(&game.id, 3).await.unwrap(), 2);
    assert_eq!(db.store.load_game(&game.id).await.unwrap().moves, moves[..3]);
    assert_eq!(db.store.truncate_moves(&game.id, 3).await.unwrap(), 0);

    // The freed ply can be played again, differently.
    db.store.append_move(&game.id, 3, place("c5"), T0.plus(9_000)).await.unwrap();
    let mut expected = moves[..3].to_vec();
    expected.push(MoveRow { ply: 3, mv: place("c5"), played_at: T0.plus(9_000) });
    assert_eq!(db.store.load_game(&game.id).await.unwrap().moves, expected);

    assert_eq!(db.store.truncate_moves(&game.id, 0).await.unwrap(), 4);
    assert_eq!(db.store.load_game(&game.id).await.unwrap().moves, vec![]);
}

fn client(address: &str) -> ClientKey {
    ClientKey::of(address.parse().unwrap())
}

async fn a_games_client_is_kept_while_it_is_live_and_forgotten_when_it_ends(db: Db) {
    let computer = NewGame { origin: Some(client("203.0.113.9")), ..computer_game(1, T0) };
    let abandoned = NewGame { id: GameId::generate(), ..computer.clone() };
    db.store.create_game(&computer).await.unwrap();
    db.store.create_game(&abandoned).await.unwrap();
    let store = &db.store;
    let origin = |id: GameId| async move { store.load_game(&id).await.unwrap().game.origin };
    assert_eq!(origin(computer.id.clone()).await, Some(client("203.0.113.9")));

    store.finish_game(&computer.id, &finished(T0.plus(1_000))).await.unwrap();
    store.abort_abandoned_games(T0.plus(1), T0.plus(2_000)).await.unwrap();
    assert_eq!(origin(computer.id).await, None);
    assert_eq!(origin(abandoned.id).await, None);
}

async fn games_in_progress_are_counted_by_player_and_by_client_for_one_mode(db: Db) {
    let here = client("203.0.113.9");
    let from_here = |game: NewGame| NewGame { origin: Some(here), ..game };
    // Ann (1) has two computer games from here; Bob (2) one from here and one from elsewhere;
    // Ann's game on one device, a finished one and one left long ago do not count.
    let counted = [
        from_here(computer_game(1, T0.plus(10_000))),
        from_here(computer_game(1, T0.plus(10_000))),
        from_here(computer_game(2, T0.plus(10_000))),
        NewGame { origin: Some(client("198.51.100.1")), ..computer_game(2, T0.plus(10_000)) },
    ];
    let same_device = NewGame {
        mode: Mode::SameDevice,
        level: None,
        white: SeatRow { id: Some(player(1)), name: "Ann".into() },
        ..from_here(computer_game(1, T0.plus(10_000)))
    };
    let finished_one = from_here(computer_game(1, T0.plus(10_000)));
    let left = from_here(computer_game(1, T0));
    for game in counted.iter().chain([&same_device, &finished_one, &left]) {
        db.store.create_game(game).await.unwrap();
    }
    db.store.finish_game(&finished_one.id, &finished(T0.plus(11_000))).await.unwrap();

    let active_since = T0.plus(5_000);
    let (ann, bob, cat) = (player(1), player(2), player(3));
    let store = &db.store;
    let count = |mode, who| store.games_in_progress_of(mode, who, here, active_since);
    assert_eq!(
        count(Mode::Computer, &ann).await.unwrap(),
        InProgress { of_player: 2, from_client: 3 }
    );
    assert_eq!(
        count(Mode::Computer, &bob).await.unwrap(),
        InProgress { of_player: 2, from_client: 3 }
    );
    assert_eq!(
        count(Mode::Computer, &cat).await.unwrap(),
        InProgress { of_player: 0, from_client: 3 }
    );
    let on_one_device = count(Mode::SameDevice, &ann).await.unwrap();
    assert_eq!(on_one_device, InProgress { of_player: 1, from_client: 1 });
}

async fn a_game_finishes_exactly_once(db: Db) {
    let game = new_game();
    let moves = create_with_moves(&db.store, &game, &[place("d3")]).await;
    let end = finished(T0.plus(60_000));
    db.store.finish_game(&game.id, &end).await.unwrap();

    let expected = GameRow {
        status: GameStatus::Finished,
        winner: Some(Winner::Black),
        end_reason: Some(EndReason::Normal),
        black_discs: Some(13),
        white_discs: Some(0),
        updated_at: end.finished_at,
        finished_at: Some(end.finished_at),
        turn_started_at: None,
        ..created(&game)
    };
    assert_eq!(db.store.load_game(&game.id).await.unwrap(), GameRecord { game: expected, moves });

    let timeout = FinishedGame {
        winner: Some(Winner::White),
        end_reason: EndReason::Timeout,
        finished_at: T0.plus(61_000),
        ..end
    };
    assert_conflict(db.store.finish_game(&game.id, &timeout).await);
    let aborted = FinishedGame { status: GameStatus::Aborted, winner: None, ..timeout };
    assert_conflict(db.store.finish_game(&game.id, &aborted).await);
    assert_eq!(db.store.load_game(&game.id).await.unwrap().game.winner, Some(Winner::Black));
}

async fn an_ended_game_takes_no_more_writes(db: Db) {
    let game = new_game();
    let moves = create_with_moves(&db.store, &game, &[place("d3")]).await;
    let aborted = FinishedGame {
        status: GameStatus::Aborted,
        winner: None,
        end_reason: EndReason::Aborted,
        black_discs: 4,
        white_discs: 1,
        finished_at: T0.plus(40_000),
        rated: None,
        review: None,
    };
    db.store.finish_game(&game.id, &aborted).await.unwrap();
    let before = db.store.load_game(&game.id).await.unwrap();
    assert_eq!(before.game.status, GameStatus::Aborted);
    assert_eq!(before.game.winner, None);
    assert_eq!(before.moves, moves);

    assert_conflict(db.store.append_move(&game.id, 1, place("c3"), T0.plus(41_000)).await);
    assert_conflict(db.store.truncate_moves(&game.id, 0).await);
    assert_eq!(db.store.load_game(&game.id).await.unwrap(), before);
}

async fn a_game_cannot_finish_as_live(db: Db) {
    let game = new_game();
    db.store.create_game(&game).await.unwrap();
    let live = FinishedGame { status: GameStatus::Live, ..finished(T0) };
    assert!(matches!(db.store.finish_game(&game.id, &live).await, Err(DbError::Other(_))));
    assert_eq!(db.store.load_game(&game.id).await.unwrap().game, created(&game));
}

async fn a_move_and_its_forced_pass_are_stored_together_and_start_the_clock(db: Db) {
    let game = new_game();
    db.store.create_game(&game).await.unwrap();
    let at = T0.plus(12_345);
    let plies = [place("d3"), Move::Pass];
    db.store.append_plies(&game.id, 0, &plies, at).await.unwrap();
    let stored = db.store.load_game(&game.id).await.unwrap();
    let expected = GameRow { turn_started_at: Some(at), updated_at: at, ..created(&game) };
    assert_eq!(stored.game, expected);
    let moves: Vec<Move> = stored.moves.iter().map(|row| row.mv).collect();
    assert_eq!(moves, plies);
    assert_conflict(db.store.append_plies(&game.id, 1, &[place("c3")], at).await);
}

async fn live_timed_games_are_the_live_ones_with_a_clock_and_their_moves(db: Db) {
    assert_eq!(db.store.live_timed_games().await.unwrap(), vec![]);
    let first = new_game();
    let over = NewGame { created_at: T0.plus(1), ..new_game() };
    let quiet = NewGame { created_at: T0.plus(2), ..new_game() };
    let first_moves = create_with_moves(&db.store, &first, &["d3", "c3"].map(place)).await;
    create_with_moves(&db.store, &over, &["f5"].map(place)).await;
    db.store.create_game(&quiet).await.unwrap();
    db.store.finish_game(&over.id, &finished(T0.plus(99_000))).await.unwrap();

    let live = db.store.live_timed_games().await.unwrap();
    let last = first_moves.last().unwrap().played_at;
    let expected = vec![
        GameRecord { game: moved(&first, last), moves: first_moves },
        GameRecord { game: created(&quiet), moves: vec![] },
    ];
    assert_eq!(live, expected);
}

async fn an_imported_game_is_marked_imported_and_left_out_of_recent_games(db: Db) {
    let me = player(7);
    let seat = |name: &str| SeatRow { id: Some(me.clone()), name: name.into() };
    let played = NewGame {
        mode: Mode::SameDevice,
        black: seat("Black"),
        white: seat("White"),
        move_time_ms: None,
        turn_started_at: None,
        ..new_game()
    };
    db.store.create_game(&played).await.unwrap();
    db.store.finish_game(&played.id, &finished(T0.plus(1_000))).await.unwrap();
    let imported = NewGame { id: GameId::generate(), ..played.clone() };
    let end = finished(T0.plus(2_000));
    db.store.create_finished_game(&imported, &[place("d3")], &end).await.unwrap();

    assert_eq!(db.store.game_source(&played.id).await.unwrap(), GameSource::Played);
    assert_eq!(db.store.game_source(&imported.id).await.unwrap(), GameSource::Imported);
    assert_not_found(db.store.game_source(&GameId::generate()).await);
    let recent = db.store.recent_games(&me, 10).await.unwrap();
    assert_eq!(recent, [db.store.game(&played.id).await.unwrap()]);
}

async fn a_continued_records_plies_are_counted_until_taken_back(db: Db) {
    let played = new_game();
    db.store.create_game(&played).await.unwrap();
    db.store.append_plies(&played.id, 0, &[place("d3"), place("c3")], T0).await.unwrap();
    let continued = NewGame { id: GameId::generate(), ..new_game() };
    let record = [place("d3"), place("c3"), place("b3")];
    db.store.create_game_with(&continued, &record, T0, None).await.unwrap();
    db.store.append_plies(&continued.id, 3, &[place("d2")], T0.plus(1_000)).await.unwrap();

    assert_eq!(db.store.recorded_plies(&played.id).await.unwrap(), 0);
    assert_eq!(db.store.recorded_plies(&continued.id).await.unwrap(), 3);
    assert_not_found(db.store.recorded_plies(&GameId::generate()).await);
    // Taking back below the record leaves only what is still the record's.
    db.store.truncate_moves(&continued.id, 2).await.unwrap();
    assert_eq!(db.store.recorded_plies(&continued.id).await.unwrap(), 2);
    db.store.truncate_moves(&played.id, 1).await.unwrap();
    assert_eq!(db.store.recorded_plies(&played.id).await.unwrap(), 0);
}

async fn recent_games_are_a_players_ended_games_newest_first(db: Db) {
    let me = player(7);
    let mut ended = Vec::new();
    for n in 0..4_i64 {
        let seat = SeatRow { id: Some(me.clone()), name: "Me".into() };
        let game = if n % 2 == 0 {
            NewGame { black: seat, ..new_game() }
        } else {
            NewGame { white: seat, ..new_game() }
        };
        db.store.create_game(&game).await.unwrap();
        let end = finished(T0.plus(1_000 * n));
        db.store.finish_game(&game.id, &end).await.unwrap();
        ended.push(db.store.load_game(&game.id).await.unwrap().game);
    }
    // Neither a live game of mine nor someone else's ended game is listed.
    let live = NewGame { black: SeatRow { id: Some(me.clone()), name: "Me".into() }, ..new_game() };
    db.store.create_game(&live).await.unwrap();
    let other = new_game();
    db.store.create_game(&other).await.unwrap();
    db.store.finish_game(&other.id, &finished(T0.plus(10_000))).await.unwrap();

    ended.reverse();
    assert_eq!(db.store.recent_games(&me, 10).await.unwrap(), ended);
    assert_eq!(db.store.recent_games(&me, 2).await.unwrap(), ended[..2]);
    assert_eq!(db.store.recent_games(&player(9), 10).await.unwrap(), vec![]);
}

async fn a_created_room_reads_back_exactly(db: Db) {
    let timed = NewRoom { time_control: Some("5+3".parse().unwrap()), ..new_room() };
    let xot = NewRoom { code: RoomCode::generate(), xot: true, ..new_room() };
    for room in [new_room(), timed, xot] {
        db.store.create_room(&room).await.unwrap();
        let expected = RoomRow {
            code: room.code.clone(),
            host: room.host.clone(),
            guest: None,
            created_at: room.created_at,
            expires_at: room.expires_at,
            game_id: None,
            games_played: 0,
            time_control: room.time_control,
            xot: room.xot,
        };
        assert_eq!(db.store.room(&room.code).await.unwrap(), expected);
    }
}

async fn creating_a_room_with_a_taken_code_is_a_conflict(db: Db) {
    let room = new_room();
    db.store.create_room(&room).await.unwrap();
    let again = NewRoom { host: RoomMember { id: player(3), name: "Cy".into() }, ..room.clone() };
    assert_conflict(db.store.create_room(&again).await);
    assert_eq!(db.store.room(&room.code).await.unwrap().host, room.host);
}

async fn an_unknown_room_is_not_found_by_any_method(db: Db) {
    let code = RoomCode::generate();
    let guest = RoomMember { id: player(2), name: "Bob".into() };
    assert_not_found(db.store.room(&code).await);
    assert_not_found(db.store.join_room(&code, &guest).await);
}

async fn a_second_guest_cannot_join_a_room(db: Db) {
    let room = new_room();
    db.store.create_room(&room).await.unwrap();
    let bob = RoomMember { id: player(2), name: "Bob".into() };
    let joined = db.store.join_room(&room.code, &bob).await.unwrap();
    assert_eq!(joined.guest, Some(bob.clone()));
    assert_eq!(db.store.room(&room.code).await.unwrap(), joined);

    // Bob again (another tab, a new nickname) is still Bob; Cy is turned away.
    let renamed = RoomMember { name: "Bobby".into(), ..bob };
    assert_eq!(
        db.store.join_room(&room.code, &renamed).await.unwrap().guest,
        Some(renamed.clone())
    );
    let cy = RoomMember { id: player(3), name: "Cy".into() };
    assert_conflict(db.store.join_room(&room.code, &cy).await);
    assert_eq!(db.store.room(&room.code).await.unwrap().guest, Some(renamed));
}

async fn racing_guests_leave_exactly_one_in_the_room(db: Db) {
    let room = new_room();
    db.store.create_room(&room).await.unwrap();
    let tasks: Vec<_> = (10..20)
        .map(|n| {
            let (store, code) = (db.store.clone(), room.code.clone());
            let guest = RoomMember { id: player(n), name: format!("Guest {n}") };
            tokio::spawn(async move { (guest.clone(), store.join_room(&code, &guest).await) })
        })
        .collect();
    let mut winners = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            (guest, Ok(_)) => winners.push(guest),
            (_, Err(DbError::Conflict)) => {}
            (_, Err(error)) => panic!("a racing join failed with {error}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one guest joins: {winners:?}");
    assert_eq!(db.store.room(&room.code).await.unwrap().guest.as_ref(), winners.first());
}

async fn a_room_counts_its_games(db: Db) {
    let room = new_room();
    db.store.create_room(&room).await.unwrap();
    let mut current: Option<GameId> = None;
    for n in 1..=3_u32 {
        let game = NewGame { room_code: Some(room.code.clone()), ..new_game() };
        let room_game = match &current {
            None => RoomGame::First,
            Some(of) => RoomGame::Rematch { of },
        };
        db.store.create_game_with(&game, &[], T0, Some(room_game)).await.unwrap();
        let stored = db.store.room(&room.code).await.unwrap();
        assert_eq!((stored.game_id, stored.games_played), (Some(game.id.clone()), n));
        assert_eq!(
            db.store.load_game(&game.id).await.unwrap().game.room_code,
            Some(room.code.clone())
        );
        current = Some(game.id);
    }
}

async fn a_rooms_first_game_is_refused_once_it_has_one(db: Db) {
    let room = new_room();
    db.store.create_room(&room).await.unwrap();
    let first = NewGame { room_code: Some(room.code.clone()), ..new_game() };
    db.store.create_game_with(&first, &[], T0, Some(RoomGame::First)).await.unwrap();
    let second = NewGame { room_code: Some(room.code.clone()), ..new_game() };
    assert_conflict(db.store.create_game_with(&second, &[], T0, Some(RoomGame::First)).await);
    assert_not_found(db.store.load_game(&second.id).await);
    let stored = db.store.room(&room.code).await.unwrap();
    assert_eq!((stored.game_id, stored.games_played), (Some(first.id), 1));
}

async fn a_rematch_is_refused_unless_it_follows_the_rooms_current_game(db: Db) {
    let room = new_room();
    db.store.create_room(&room).await.unwrap();
    let first = NewGame { room_code: Some(room.code.clone()), ..new_game() };
    db.store.create_game_with(&first, &[], T0, Some(RoomGame::First)).await.unwrap();
    let rematch = NewGame { room_code: Some(room.code.clone()), ..new_game() };
    let of = &first.id;
    db.store.create_game_with(&rematch, &[], T0, Some(RoomGame::Rematch { of })).await.unwrap();
    // A second rematch of the first game: the room has moved on.
    let stale = NewGame { room_code: Some(room.code.clone()), ..new_game() };
    assert_conflict(
        db.store.create_game_with(&stale, &[], T0, Some(RoomGame::Rematch { of })).await,
    );
    assert_not_found(db.store.load_game(&stale.id).await);
    let stored = db.store.room(&room.code).await.unwrap();
    assert_eq!((stored.game_id, stored.games_played), (Some(rematch.id), 2));
}

async fn racing_first_games_of_a_room_store_exactly_one(db: Db) {
    let room = new_room();
    db.store.create_room(&room).await.unwrap();
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let store = db.store.clone();
            let game = NewGame { room_code: Some(room.code.clone()), ..new_game() };
            tokio::spawn(async move {
                let created = store.create_game_with(&game, &[], T0, Some(RoomGame::First)).await;
                (game.id, created)
            })
        })
        .collect();
    let mut winners = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            (id, Ok(())) => winners.push(id),
            (_, Err(DbError::Conflict)) => {}
            (_, Err(error)) => panic!("a racing first game failed with {error}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one first game: {winners:?}");
    let stored = db.store.room(&room.code).await.unwrap();
    assert_eq!((stored.game_id.as_ref(), stored.games_played), (winners.first(), 1));
}

async fn the_first_stored_setting_wins(db: Db) {
    assert_eq!(db.store.setting("session_secret").await.unwrap(), None);
    assert_eq!(db.store.setting_or_insert("session_secret", "first").await.unwrap(), "first");
    assert_eq!(db.store.setting_or_insert("session_secret", "second").await.unwrap(), "first");
    assert_eq!(db.store.setting("session_secret").await.unwrap(), Some("first".into()));
    assert_eq!(db.store.setting_or_insert("other", "x").await.unwrap(), "x");
}

async fn racing_nodes_agree_on_a_setting(db: Db) {
    let tasks: Vec<_> = (0..10)
        .map(|n| {
            let store = db.store.clone();
            tokio::spawn(async move { store.setting_or_insert("secret", &format!("v{n}")).await })
        })
        .collect();
    let mut values = Vec::new();
    for task in tasks {
        values.push(task.await.unwrap().unwrap());
    }
    let stored = db.store.setting("secret").await.unwrap().expect("a stored value");
    assert!(values.iter().all(|value| *value == stored), "{values:?} vs {stored}");
}

async fn corrupt_stored_text_is_an_error_not_a_panic(db: Db) {
    let game = new_game();
    create_with_moves(&db.store, &game, &[place("d3")]).await;
    let room = new_room();
    db.store.create_room(&room).await.unwrap();

    sqlx::any::install_default_drivers();
    let raw = sqlx::AnyPool::connect(&db.url).await.unwrap();
    let corrupt = [
        ("UPDATE games SET mode = 'chess' WHERE id = $1", "games.mode"),
        ("UPDATE games SET mode = 'friend', black_discs = 300 WHERE id = $1", "black_discs"),
        (
            "UPDATE games SET black_discs = NULL, start_position = 'x' WHERE id = $1",
            "games.start_position",
        ),
    ];
    for (sql, column) in corrupt {
        raw.execute(sqlx::query(sql).bind(game.id.as_str())).await.unwrap();
        let mut results = vec![db.store.load_game(&game.id).await.map(drop)];
        // A mode that is none of ours is not among the timed games at all.
        if column != "games.mode" {
            results.push(db.store.live_timed_games().await.map(drop));
        }
        for result in results {
            match result {
                Err(DbError::Other(message)) => assert!(message.contains(column), "{message}"),
                other => panic!("expected an error naming {column}, got {other:?}"),
            }
        }
    }
    raw.execute(
        sqlx::query("UPDATE moves SET mv = 'z9' WHERE game_id = $1").bind(game.id.as_str()),
    )
    .await
    .unwrap();
    raw.execute(
        sqlx::query("UPDATE games SET start_position = $2 WHERE id = $1")
            .bind(game.id.as_str())
            .bind(Board::start().to_string()),
    )
    .await
    .unwrap();
    assert!(
        matches!(db.store.load_game(&game.id).await, Err(DbError::Other(m)) if m.contains("moves.mv"))
    );

    raw.execute(
        sqlx::query("UPDATE rooms SET guest_id = 'nobody', guest_name = 'X' WHERE code = $1")
            .bind(room.code.as_str()),
    )
    .await
    .unwrap();
    assert!(
        matches!(db.store.room(&room.code).await, Err(DbError::Other(m)) if m.contains("rooms.guest_id"))
    );
    raw.close().await;
}

#[tokio::test]
async fn an_unsupported_url_is_refused_by_name() {
    let error = Store::connect("mysql://root:hunter2@127.0.0.1/outflank").await.unwrap_err();
    let message = error.to_string();
    assert!(message.contains("mysql://root:***@127.0.0.1/outflank"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");
}

#[tokio::test]
async fn connection_errors_and_debug_output_hide_the_password() {
    // An impossible port fails at once; a refused connection is retried for seconds first.
    let error =
        Store::connect("postgres://app:hunter2@127.0.0.1:99999/outflank").await.unwrap_err();
    let message = error.to_string();
    assert!(message.contains("postgres://app:***@127.0.0.1:99999/outflank"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");

    let dir = tempfile::tempdir().unwrap();
    let store =
        Store::connect(&format!("sqlite://{}", dir.path().join("a.db").display())).await.unwrap();
    assert!(format!("{store:?}").starts_with("Store { backend: Sqlite, url: \"sqlite://"));
    store.close().await;
}

#[tokio::test]
async fn an_sqlite_database_gets_its_directory_and_wal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a").join("b").join("outflank.db");
    let store = Store::connect(&format!("sqlite://{}", path.display())).await.unwrap();
    assert!(path.exists());
    store.close().await;

    let raw = sqlx::AnyPool::connect(&format!("sqlite://{}", path.display())).await.unwrap();
    let mode: String = sqlx::Row::get(&raw.fetch_one("PRAGMA journal_mode").await.unwrap(), 0);
    assert_eq!(mode, "wal");
    raw.close().await;
}

#[tokio::test]
async fn an_in_memory_sqlite_database_works() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    let game = new_game();
    store.create_game(&game).await.unwrap();
    assert_eq!(store.load_game(&game.id).await.unwrap().game, created(&game));
    store.close().await;
}

async fn a_guest_is_stored_and_renaming_keeps_when_it_was_created(db: Db) {
    let id = outflank_api::domain::PlayerId::generate();
    let first = outflank_api::domain::Timestamp(1_000);
    let later = outflank_api::domain::Timestamp(2_000);
    db.store.upsert_guest(&id, "Ann", first).await.unwrap();
    db.store.upsert_guest(&id, "Annie", later).await.unwrap();
    let player = db.store.player(&id).await.unwrap();
    assert_eq!(
        player,
        outflank_api::storage::PlayerRow {
            id: id.clone(),
            nickname: "Annie".into(),
            created_at: first,
            last_seen_at: later,
        }
    );
}

async fn an_unknown_player_is_not_found(db: Db) {
    let id = outflank_api::domain::PlayerId::generate();
    assert!(matches!(db.store.player(&id).await, Err(DbError::NotFound)));
}

async fn a_game_is_created_with_its_plies_and_as_its_rooms_game_at_once(db: Db) {
    let room = new_room();
    db.store.create_room(&room).await.unwrap();
    let game = NewGame { room_code: Some(room.code.clone()), ..new_game() };
    let plies = [place("d3"), place("c5"), place("f6")];
    db.store
        .create_game_with(&game, &plies, Timestamp(5_000), Some(RoomGame::First))
        .await
        .unwrap();
    let stored = db.store.load_game(&game.id).await.unwrap();
    let moves: Vec<Move> = stored.moves.iter().map(|row| row.mv).collect();
    assert_eq!(moves, plies);
    let stored_room = db.store.room(&room.code).await.unwrap();
    assert_eq!((stored_room.game_id, stored_room.games_played), (Some(game.id.clone()), 1));
}

async fn a_game_for_an_unknown_room_is_not_created_at_all(db: Db) {
    let game = NewGame { room_code: Some(new_room().code), ..new_game() };
    assert_not_found(
        db.store
            .create_game_with(&game, &[place("d3")], Timestamp(5_000), Some(RoomGame::First))
            .await,
    );
    assert_not_found(db.store.load_game(&game.id).await);
}

async fn abandoned_games_without_a_clock_are_aborted_and_timed_ones_left(db: Db) {
    let computer = NewGame {
        mode: Mode::Computer,
        level: Some(Level::EASY),
        white: SeatRow { id: None, name: "Computer (Easy)".into() },
        move_time_ms: None,
        turn_started_at: None,
        ..new_game()
    };
    let recent =
        NewGame { id: GameId::generate(), created_at: T0.plus(10_000), ..computer.clone() };
    // Started as long ago as the abandoned one, but played since.
    let played = NewGame { id: GameId::generate(), ..computer.clone() };
    let timed = new_game();
    // Against the computer under a chosen control: its clock runs, so it is never abandoned.
    let timed_computer = NewGame {
        id: GameId::generate(),
        time_control: Some(TimeControl::fischer(3, 2)),
        turn_started_at: Some(T0),
        ..computer.clone()
    };
    for game in [&computer, &recent, &played, &timed, &timed_computer] {
        db.store.create_game(game).await.unwrap();
    }
    db.store.append_move(&played.id, 0, place("d3"), T0.plus(10_000)).await.unwrap();
    let ended = db.store.abort_abandoned_games(T0.plus(5_000), T0.plus(99_000)).await.unwrap();
    assert_eq!(ended, 1);
    let resumed: Vec<GameId> = db
        .store
        .live_timed_games()
        .await
        .unwrap()
        .into_iter()
        .map(|record| record.game.id)
        .collect();
    assert!(resumed.contains(&timed_computer.id), "a timed computer game resumes after a restart");
    assert!(!resumed.contains(&recent.id), "an untimed one waits for its player");
    let stored = db.store.load_game(&computer.id).await.unwrap().game;
    assert_eq!((stored.status, stored.end_reason), (GameStatus::Aborted, Some(EndReason::Aborted)));
    assert_eq!(stored.finished_at, Some(T0.plus(99_000)));
    for game in [&recent, &played, &timed, &timed_computer] {
        assert_eq!(db.store.load_game(&game.id).await.unwrap().game.status, GameStatus::Live);
    }
}

async fn the_last_opponent_is_the_other_player_of_the_newest_quick_or_ranked_game(db: Db) {
    assert_eq!(db.store.last_opponent(&player(1)).await.unwrap(), None);
    let quick = |white: usize, at: i64| NewGame {
        id: GameId::generate(),
        mode: Mode::Quick,
        white: SeatRow { id: Some(player(white)), name: "Cat".into() },
        created_at: T0.plus(at),
        ..new_game()
    };
    db.store.create_game(&quick(2, 0)).await.unwrap();
    db.store.create_game(&quick(3, 1_000)).await.unwrap();
    // A friend game later does not count: only games the queue paired.
    db.store.create_game(&NewGame { created_at: T0.plus(2_000), ..new_game() }).await.unwrap();
    assert_eq!(db.store.last_opponent(&player(1)).await.unwrap(), Some(player(3)));
    assert_eq!(db.store.last_opponent(&player(3)).await.unwrap(), Some(player(1)));
}

/// A revocation made at `at`, expiring a day later.
fn revocation(n: usize, at: i64) -> Revocation {
    Revocation { player: player(n), valid_after: T0.plus(at), expires_at: T0.plus(at + DAY) }
}

const DAY: i64 = 24 * 3600 * 1000;

async fn session_revocations_read_back_and_a_later_one_wins(db: Db) {
    db.store.revoke_sessions(&revocation(1, 2_000)).await.unwrap();
    db.store.revoke_sessions(&revocation(1, 1_000)).await.unwrap();
    db.store.revoke_sessions(&revocation(2, 500)).await.unwrap();
    let mut read = db.store.session_revocations_since(T0.plus(600)).await.unwrap();
    read.sort();
    assert_eq!(read, vec![(player(1), T0.plus(2_000))]);
    let mut all = db.store.session_revocations_since(T0).await.unwrap();
    all.sort();
    assert_eq!(all, vec![(player(1), T0.plus(2_000)), (player(2), T0.plus(500))]);
}

async fn a_revocation_is_deleted_once_it_has_expired(db: Db) {
    db.store.revoke_sessions(&revocation(1, 0)).await.unwrap();
    db.store.revoke_sessions(&revocation(2, 1_000)).await.unwrap();
    assert_eq!(db.store.delete_expired_revocations(T0.plus(DAY - 1)).await.unwrap(), 0);
    assert_eq!(db.store.delete_expired_revocations(T0.plus(DAY)).await.unwrap(), 1);
    let left = db.store.session_revocations_since(Timestamp(0)).await.unwrap();
    assert_eq!(left, vec![(player(2), T0.plus(1_000))]);
}

async fn storing_a_revocation_deletes_those_expired_by_then(db: Db) {
    db.store.revoke_sessions(&revocation(1, 0)).await.unwrap();
    db.store.revoke_sessions(&revocation(2, 1)).await.unwrap();
    db.store.revoke_sessions(&revocation(3, DAY)).await.unwrap();
    let mut left = db.store.session_revocations_since(Timestamp(0)).await.unwrap();
    left.sort();
    assert_eq!(left, vec![(player(2), T0.plus(1)), (player(3), T0.plus(DAY))]);
}

#[tokio::test]
async fn an_embedded_database_and_its_new_folder_are_readable_by_their_owner_alone() {
    use std::os::unix::fs::PermissionsExt;
    let base = std::env::temp_dir().join(format!("outflank-private-{}", std::process::id()));
    let file = base.join("data").join("outflank.sqlite");
    let store = Store::connect(&format!("sqlite://{}?mode=rwc", file.display())).await.unwrap();
    store.ping().await.unwrap();
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o600);
    assert_eq!(mode(file.parent().unwrap()), 0o700);
    drop(store);
    std::fs::remove_dir_all(&base).unwrap();
}

/// A game against the computer (White) by `black`, created at `at`.
fn computer_game(black: usize, at: Timestamp) -> NewGame {
    NewGame {
        id: GameId::generate(),
        mode: Mode::Computer,
        level: Some(Level::EASY),
        black: SeatRow { id: Some(player(black)), name: "Ann".into() },
        white: SeatRow { id: None, name: "Computer · level 1".into() },
        move_time_ms: None,
        turn_started_at: None,
        created_at: at,
        ..new_game()
    }
}

/// A live game of `mode` between `black` and `white` (`None`: the computer), created at `at`.
fn paired_game(mode: Mode, black: Option<&PlayerId>, white: Option<&PlayerId>, at: i64) -> NewGame {
    let seat = |id: Option<&PlayerId>, name: &str| SeatRow {
        id: id.cloned(),
        name: if id.is_some() { name.into() } else { "Computer · level 3".into() },
    };
    NewGame {
        id: GameId::generate(),
        mode,
        rated: mode == Mode::Ranked,
        black: seat(black, "Black player"),
        white: seat(white, "White player"),
        created_at: T0.plus(at),
        ..new_game()
    }
}

/// A named account rated `rating` in the 30-s pool after `rated_games` games.
async fn rated_account(
    db: &Db,
    subject: &str,
    name: &str,
    rating: f64,
    rated_games: i32,
) -> PlayerId {
    let account = db.store.sign_in("https://issuer.example", subject, name, T0).await.unwrap();
    db.store.set_account_name(&account.player_id, &PublicName::parse(name).unwrap()).await.unwrap();
    sqlx::any::install_default_drivers();
    let raw = sqlx::AnyPool::connect(&db.url).await.unwrap();
    raw.execute(
        sqlx::query(
            "INSERT INTO ratings (player_id, pool, rating, rated_games, wins, draws, losses) \
             VALUES ($1, '30s', $2, $3, 0, 0, 0)",
        )
        .bind(account.player_id.as_str())
        .bind(rating)
        .bind(rated_games),
    )
    .await
    .unwrap();
    raw.close().await;
    account.player_id
}

async fn games_in_progress_are_the_timed_live_ones_and_the_untimed_ones_touched_lately(db: Db) {
    let active_since = T0.plus(60_000);
    assert_eq!(db.store.count_games_in_progress(active_since).await.unwrap(), 0);
    // A timed game is in progress however old: its clock ends it when it is left.
    let timed = new_game();
    // Left long ago, against the computer: not in progress, though still live.
    let left = computer_game(3, T0);
    // Started before the cut-off, but with a move after it: in progress.
    let moved = computer_game(4, T0);
    // Started after the cut-off.
    let fresh = computer_game(5, T0.plus(90_000));
    let over = computer_game(6, T0.plus(90_000));
    for game in [&timed, &left, &moved, &fresh, &over] {
        db.store.create_game(game).await.unwrap();
    }
    db.store.append_move(&moved.id, 0, place("d3"), T0.plus(61_000)).await.unwrap();
    db.store.finish_game(&over.id, &finished(T0.plus(95_000))).await.unwrap();
    assert_eq!(db.store.count_games_in_progress(active_since).await.unwrap(), 3);
    // The same games, a minute earlier: the old one counts too.
    assert_eq!(db.store.count_games_in_progress(T0).await.unwrap(), 4);
}

async fn the_players_in_games_in_progress_are_each_person_seated_once(db: Db) {
    let active_since = T0.plus(60_000);
    // Ann (1) and Bob (2) in a friend game; Ann also against the computer; Cat (3) on one device
    // (both seats hers); Dan (4) in a computer game he left long ago; Eve (5) in a finished one.
    let same_device = NewGame {
        id: GameId::generate(),
        mode: Mode::SameDevice,
        black: SeatRow { id: Some(player(3)), name: "Cat".into() },
        white: SeatRow { id: Some(player(3)), name: "Cat".into() },
        move_time_ms: None,
        turn_started_at: None,
        created_at: T0.plus(70_000),
        ..new_game()
    };
    let ended = computer_game(5, T0.plus(70_000));
    for game in [
        &new_game(),
        &computer_game(1, T0.plus(70_000)),
        &same_device,
        &computer_game(4, T0),
        &ended,
    ] {
        db.store.create_game(game).await.unwrap();
    }
    db.store.finish_game(&ended.id, &finished(T0.plus(80_000))).await.unwrap();
    let mut players = db.store.players_in_games_in_progress(active_since).await.unwrap();
    players.sort();
    let mut expected = vec![player(1), player(2), player(3)];
    expected.sort();
    assert_eq!(players, expected);
    assert_eq!(db.store.count_games_in_progress(active_since).await.unwrap(), 3);
}

async fn watchable_games_are_the_live_quick_and_ranked_ones_best_rated_first(db: Db) {
    let alice = rated_account(&db, "alice", "Alice", 1_512.4, 12).await;
    let bob = rated_account(&db, "bob", "Bob", 1_304.0, 3).await;
    let low = rated_account(&db, "low", "Low", 1_100.0, 20).await;
    let guests = paired_game(Mode::Quick, Some(&player(1)), Some(&player(2)), 3_000);
    let ranked = paired_game(Mode::Ranked, Some(&bob), Some(&alice), 1_000);
    let bob_computer = paired_game(Mode::Quick, None, Some(&bob), 2_000);
    let low_computer = paired_game(Mode::Quick, Some(&low), None, 4_000);
    let guests_newer = paired_game(Mode::Quick, Some(&player(3)), Some(&player(4)), 5_000);
    // Not listed: a friend game, a computer game, an ended quick game.
    let friend = paired_game(Mode::Friend, Some(&alice), Some(&player(5)), 6_000);
    let computer = computer_game(6, T0.plus(6_000));
    let ended = paired_game(Mode::Quick, Some(&alice), Some(&player(7)), 6_000);
    for game in
        [&guests, &ranked, &bob_computer, &low_computer, &guests_newer, &friend, &computer, &ended]
    {
        db.store.create_game(game).await.unwrap();
    }
    db.store.finish_game(&ended.id, &finished(T0.plus(7_000))).await.unwrap();
    for (ply, square) in (0u32..).zip(["d3", "c3", "b3"]) {
        db.store.append_move(&ranked.id, ply, place(square), T0.plus(8_000)).await.unwrap();
    }

    let listed = db.store.watchable_games(10).await.unwrap();
    let ids: Vec<&GameId> = listed.iter().map(|listed| &listed.game.id).collect();
    // Alice's 1,512 first; Bob's 1,304 (the computer counts for nobody); the guests' 1,200,
    // newest first; Low's 1,100 last, though the computer is White.
    assert_eq!(ids, [&ranked.id, &bob_computer.id, &guests_newer.id, &guests.id, &low_computer.id]);
    let first = &listed[0];
    assert_eq!(first.game, moved(&ranked, T0.plus(8_000)));
    assert_eq!(first.plies, 3);
    assert_eq!(first.black, Some(SeatStanding { rating: 1_304.0, rated_games: 3 }));
    assert_eq!(first.white, Some(SeatStanding { rating: 1_512.4, rated_games: 12 }));
    assert_eq!((listed[1].black, listed[1].plies), (None, 0));
    assert_eq!((listed[2].black, listed[2].white), (None, None));
    assert_eq!(db.store.watchable_games(2).await.unwrap().len(), 2);
}

async fn recent_results_are_finished_quick_and_ranked_games_newest_first(db: Db) {
    assert_eq!(db.store.recent_results(10).await.unwrap(), vec![]);
    let quick = paired_game(Mode::Quick, Some(&player(1)), Some(&player(2)), 0);
    let ranked = paired_game(Mode::Ranked, Some(&player(3)), Some(&player(4)), 0);
    let aborted = paired_game(Mode::Quick, Some(&player(5)), Some(&player(6)), 0);
    let friend = paired_game(Mode::Friend, Some(&player(7)), Some(&player(8)), 0);
    let live = paired_game(Mode::Quick, Some(&player(9)), Some(&player(10)), 0);
    for game in [&quick, &ranked, &aborted, &friend, &live] {
        db.store.create_game(game).await.unwrap();
    }
    db.store.finish_game(&quick.id, &finished(T0.plus(1_000))).await.unwrap();
    db.store.finish_game(&ranked.id, &finished(T0.plus(2_000))).await.unwrap();
    db.store.finish_game(&friend.id, &finished(T0.plus(3_000))).await.unwrap();
    let abort = FinishedGame {
        status: GameStatus::Aborted,
        winner: None,
        end_reason: EndReason::Aborted,
        ..finished(T0.plus(4_000))
    };
    db.store.finish_game(&aborted.id, &abort).await.unwrap();

    let results = db.store.recent_results(10).await.unwrap();
    let ids: Vec<&GameId> = results.iter().map(|game| &game.id).collect();
    assert_eq!(ids, [&ranked.id, &quick.id]);
    assert_eq!(results[0].winner, Some(Winner::Black));
    assert_eq!((results[0].black_discs, results[0].white_discs), (Some(13), Some(0)));
    assert_eq!(db.store.recent_results(1).await.unwrap().len(), 1);
}

const ENGINE: &str = "outflank-engine 0.1.0";

/// A game with one ply that is over, stored through `create_finished_game`.
async fn finished_game(store: &Store) -> GameId {
    let game =
        NewGame { mode: Mode::SameDevice, move_time_ms: None, turn_started_at: None, ..new_game() };
    store.create_finished_game(&game, &[place("d3")], &finished(T0.plus(1_000))).await.unwrap();
    game.id
}

async fn a_finished_game_is_created_with_its_plies_and_result_at_once(db: Db) {
    let game =
        NewGame { mode: Mode::SameDevice, move_time_ms: None, turn_started_at: None, ..new_game() };
    let end = finished(T0.plus(5_000));
    db.store.create_finished_game(&game, &[place("d3"), place("c3")], &end).await.unwrap();
    let expected = GameRow {
        status: GameStatus::Finished,
        winner: Some(Winner::Black),
        end_reason: Some(EndReason::Normal),
        black_discs: Some(13),
        white_discs: Some(0),
        updated_at: end.finished_at,
        finished_at: Some(end.finished_at),
        ..created(&game)
    };
    let moves = vec![
        MoveRow { ply: 0, mv: place("d3"), played_at: T0 },
        MoveRow { ply: 1, mv: place("c3"), played_at: T0 },
    ];
    assert_eq!(db.store.load_game(&game.id).await.unwrap(), GameRecord { game: expected, moves });
    // The same id again changes nothing; a live or rated "finished" game is refused.
    assert_conflict(db.store.create_finished_game(&game, &[], &end).await);
    let other = NewGame { id: GameId::generate(), ..game.clone() };
    let live = FinishedGame { status: GameStatus::Live, ..end.clone() };
    assert!(matches!(
        db.store.create_finished_game(&other, &[], &live).await,
        Err(DbError::Other(_))
    ));
    assert_not_found(db.store.load_game(&other.id).await);
}

async fn a_game_that_finishes_with_a_result_has_its_review_queued_in_the_same_write(db: Db) {
    let game = new_game();
    create_with_moves(&db.store, &game, &[place("d3")]).await;
    let end = FinishedGame { review: Some(ENGINE.into()), ..finished(T0.plus(5_000)) };
    db.store.finish_game(&game.id, &end).await.unwrap();
    let row = db.store.analysis(&game.id).await.unwrap().expect("queued with the end");
    assert_eq!(
        (row.status, row.engine.as_str(), row.requested_by, row.created_at),
        (AnalysisStatus::Queued, ENGINE, None, T0.plus(5_000))
    );
    assert_eq!(db.store.claimable_analyses(T0, GameSource::Played, 10).await.unwrap(), [game.id]);
}

async fn an_aborted_game_has_no_review_queued(db: Db) {
    let game = new_game();
    create_with_moves(&db.store, &game, &[place("d3")]).await;
    let aborted = FinishedGame {
        status: GameStatus::Aborted,
        winner: None,
        end_reason: EndReason::Aborted,
        review: Some(ENGINE.into()),
        ..finished(T0.plus(5_000))
    };
    db.store.finish_game(&game.id, &aborted).await.unwrap();
    assert_eq!(db.store.analysis(&game.id).await.unwrap(), None);
}

async fn an_imported_games_review_is_not_queued_with_its_end(db: Db) {
    let game = new_game();
    let end = FinishedGame { review: Some(ENGINE.into()), ..finished(T0) };
    assert!(matches!(
        db.store.create_finished_game(&game, &[], &end).await,
        Err(DbError::Other(_))
    ));
    assert_not_found(db.store.load_game(&game.id).await);
}

async fn an_analysis_is_queued_once_and_again_only_after_a_failure_or_for_another_engine(db: Db) {
    let store = &db.store;
    let id = finished_game(store).await;
    assert_eq!(store.analysis(&id).await.unwrap(), None);
    let asker = requester(3, [203, 0, 113, 3]);
    let QueuedAnalysis::Queued(row) =
        store.queue_analysis(&id, ENGINE, Some(&asker), T0).await.unwrap()
    else {
        panic!("a first request queues")
    };
    assert_eq!(
        row,
        AnalysisRow {
            game_id: id.clone(),
            status: AnalysisStatus::Queued,
            engine: ENGINE.into(),
            requested_by: Some(asker.player.clone()),
            progress_done: 0,
            progress_total: 0,
            claimed_by: None,
            claimed_at: None,
            result: None,
            error: None,
            created_at: T0,
            finished_at: None,
        }
    );
    // Queued, running or done with the same engine: left as it is.
    let again = store.queue_analysis(&id, ENGINE, None, T0.plus(1)).await.unwrap();
    assert_eq!(again, QueuedAnalysis::Existing(row.clone()));
    store.claim_analysis(&id, "node-a", T0.plus(2), T0).await.unwrap().unwrap();
    assert!(matches!(
        store.queue_analysis(&id, ENGINE, None, T0.plus(3)).await.unwrap(),
        QueuedAnalysis::Existing(AnalysisRow { status: AnalysisStatus::Running, .. })
    ));
    store.finish_analysis(&id, "node-a", "[]", T0.plus(4)).await.unwrap();
    let done = store.analysis(&id).await.unwrap().unwrap();
    assert_eq!((done.status, done.result.as_deref()), (AnalysisStatus::Done, Some("[]")));
    assert_eq!(done.finished_at, Some(T0.plus(4)));
    assert_eq!(
        store.queue_analysis(&id, ENGINE, Some(&asker), T0.plus(5)).await.unwrap(),
        QueuedAnalysis::Existing(done)
    );
    // Another engine reviews again, from scratch.
    let newer = "outflank-engine 0.2.0";
    let QueuedAnalysis::Queued(requeued) =
        store.queue_analysis(&id, newer, None, T0.plus(6)).await.unwrap()
    else {
        panic!("another engine queues again")
    };
    assert_eq!((requeued.status, requeued.engine.as_str()), (AnalysisStatus::Queued, newer));
    assert_eq!((requeued.result, requeued.claimed_by, requeued.requested_by), (None, None, None));
    // A failed analysis is queued again by the next request.
    store.claim_analysis(&id, "node-b", T0.plus(7), T0).await.unwrap().unwrap();
    store.fail_analysis(&id, "node-b", "cancelled", T0.plus(8)).await.unwrap();
    let failed = store.analysis(&id).await.unwrap().unwrap();
    assert_eq!(
        (failed.status, failed.error.as_deref()),
        (AnalysisStatus::Failed, Some("cancelled"))
    );
    assert!(matches!(
        store.queue_analysis(&id, newer, None, T0.plus(9)).await.unwrap(),
        QueuedAnalysis::Queued(AnalysisRow { status: AnalysisStatus::Queued, .. })
    ));
}

async fn racing_nodes_claim_an_analysis_exactly_once_and_a_stale_claim_is_taken_over(db: Db) {
    let store = &db.store;
    let id = finished_game(store).await;
    store.queue_analysis(&id, ENGINE, None, T0).await.unwrap();
    assert_eq!(
        store.claimable_analyses(T0, GameSource::Imported, 10).await.unwrap(),
        vec![id.clone()]
    );
    let claims = futures_util::future::join_all((0..8).map(|n| {
        let (store, id) = (store.clone(), id.clone());
        async move { store.claim_analysis(&id, &format!("node-{n}"), T0.plus(10), T0).await }
    }))
    .await;
    let winners: Vec<AnalysisRow> = claims.into_iter().filter_map(|claim| claim.unwrap()).collect();
    assert_eq!(winners.len(), 1, "exactly one node claims it");
    let holder = winners[0].claimed_by.clone().unwrap();
    assert_eq!(
        (winners[0].status, winners[0].claimed_at),
        (AnalysisStatus::Running, Some(T0.plus(10)))
    );
    // A fresh claim is not claimable; one last renewed before the bound is.
    assert_eq!(
        store.claimable_analyses(T0.plus(10), GameSource::Imported, 10).await.unwrap(),
        vec![]
    );
    assert_eq!(store.claim_analysis(&id, "node-x", T0.plus(11), T0.plus(10)).await.unwrap(), None);
    assert_eq!(
        store.claimable_analyses(T0.plus(11), GameSource::Imported, 10).await.unwrap(),
        vec![id.clone()]
    );
    let taken = store.claim_analysis(&id, "node-x", T0.plus(12), T0.plus(11)).await.unwrap();
    assert_eq!(taken.unwrap().claimed_by.as_deref(), Some("node-x"));
    // The node that lost its claim can no longer write.
    assert_conflict(store.analysis_progress(&id, &holder, (1, 2), T0.plus(13)).await);
    assert_conflict(store.finish_analysis(&id, &holder, "[]", T0.plus(13)).await);
}

async fn only_the_node_holding_the_claim_writes_progress_and_the_result(db: Db) {
    let store = &db.store;
    let id = finished_game(store).await;
    store.queue_analysis(&id, ENGINE, None, T0).await.unwrap();
    // Nobody holds it yet.
    assert_conflict(store.analysis_progress(&id, "node-a", (1, 3), T0.plus(1)).await);
    store.claim_analysis(&id, "node-a", T0.plus(1), T0).await.unwrap().unwrap();
    store.analysis_progress(&id, "node-a", (2, 3), T0.plus(2)).await.unwrap();
    assert_conflict(store.analysis_progress(&id, "node-b", (3, 3), T0.plus(2)).await);
    let row = store.analysis(&id).await.unwrap().unwrap();
    assert_eq!((row.progress_done, row.progress_total, row.claimed_at), (2, 3, Some(T0.plus(2))));
    assert_conflict(store.fail_analysis(&id, "node-b", "no", T0.plus(3)).await);
    store.finish_analysis(&id, "node-a", r#"{"plies":[]}"#, T0.plus(3)).await.unwrap();
    let row = store.analysis(&id).await.unwrap().unwrap();
    assert_eq!((row.status, row.progress_done, row.progress_total), (AnalysisStatus::Done, 3, 3));
    // Done is final: neither a claim nor a second result.
    assert_eq!(store.claim_analysis(&id, "node-b", T0.plus(4), T0.plus(4)).await.unwrap(), None);
    assert_conflict(store.finish_analysis(&id, "node-a", "[]", T0.plus(5)).await);
    assert_eq!(
        store.claimable_analyses(T0.plus(100), GameSource::Imported, 10).await.unwrap(),
        vec![]
    );
}

async fn a_players_open_analyses_are_counted_and_unknown_games_not_found(db: Db) {
    let store = &db.store;
    let asker = requester(4, [203, 0, 113, 4]);
    assert_eq!(store.open_analyses_of(&asker).await.unwrap().by_player, 0);
    let mut games = Vec::new();
    for n in 0..3 {
        let id = finished_game(store).await;
        store.queue_analysis(&id, ENGINE, Some(&asker), T0.plus(n)).await.unwrap();
        games.push(id);
    }
    store.queue_analysis(&finished_game(store).await, ENGINE, None, T0).await.unwrap();
    assert_eq!(store.open_analyses_of(&asker).await.unwrap().by_player, 3);
    store.claim_analysis(&games[0], "node-a", T0.plus(5), T0).await.unwrap().unwrap();
    assert_eq!(store.open_analyses_of(&asker).await.unwrap().by_player, 3);
    store.finish_analysis(&games[0], "node-a", "[]", T0.plus(6)).await.unwrap();
    assert_eq!(store.open_analyses_of(&asker).await.unwrap().by_player, 2);
    assert_not_found(store.queue_analysis(&GameId::generate(), ENGINE, None, T0).await);
    assert_eq!(store.analysis(&GameId::generate()).await.unwrap(), None);
}

/// Player `n` asking from the IPv4 address `client`.
fn requester(n: usize, client: [u8; 4]) -> AnalysisRequester {
    AnalysisRequester { player: player(n), client: ClientKey::of(std::net::IpAddr::from(client)) }
}

async fn an_addresss_open_analyses_are_counted_and_the_address_forgotten_at_the_end(db: Db) {
    let store = &db.store;
    let (ann, bob) = (requester(5, [203, 0, 113, 5]), requester(6, [203, 0, 113, 5]));
    let open = |by_player, from_client| OpenAnalyses { by_player, from_client };
    assert_eq!(store.open_analyses_of(&ann).await.unwrap(), open(0, 0));
    let first = finished_game(store).await;
    store.queue_analysis(&first, ENGINE, Some(&ann), T0).await.unwrap();
    store.queue_analysis(&finished_game(store).await, ENGINE, Some(&bob), T0).await.unwrap();
    // Ann again, from elsewhere: hers, but not the address's.
    let elsewhere = requester(5, [198, 51, 100, 5]);
    store.queue_analysis(&finished_game(store).await, ENGINE, Some(&elsewhere), T0).await.unwrap();
    store.queue_analysis(&finished_game(store).await, ENGINE, None, T0).await.unwrap();
    assert_eq!(store.open_analyses_of(&ann).await.unwrap(), open(2, 2));
    assert_eq!(store.open_analyses_of(&bob).await.unwrap(), open(1, 2));
    store.claim_analysis(&first, "node-a", T0.plus(1), T0).await.unwrap().unwrap();
    assert_eq!(store.open_analyses_of(&ann).await.unwrap(), open(2, 2));
    store.finish_analysis(&first, "node-a", "[]", T0.plus(2)).await.unwrap();
    assert_eq!(store.open_analyses_of(&ann).await.unwrap(), open(1, 1));
    // The address is kept only while the analysis is open.
    let raw = sqlx::AnyPool::connect(&db.url).await.unwrap();
    let row = sqlx::query("SELECT requested_from FROM analyses WHERE game_id = $1")
        .bind(first.as_str())
        .fetch_one(&raw)
        .await
        .unwrap();
    assert_eq!(sqlx::Row::get::<Option<String>, _>(&row, "requested_from"), None);
    raw.close().await;
}

async fn claimable_analyses_are_those_of_games_from_the_source_asked_for(db: Db) {
    let store = &db.store;
    let imported = finished_game(store).await;
    store.queue_analysis(&imported, ENGINE, None, T0).await.unwrap();
    let played = new_game();
    create_with_moves(store, &played, &[place("d3")]).await;
    let end = FinishedGame { review: Some(ENGINE.into()), ..finished(T0.plus(5_000)) };
    store.finish_game(&played.id, &end).await.unwrap();
    assert_eq!(store.claimable_analyses(T0, GameSource::Played, 10).await.unwrap(), [played.id]);
    assert_eq!(store.claimable_analyses(T0, GameSource::Imported, 10).await.unwrap(), [imported]);
}

fn puzzle(game_id: &GameId, ply: u32, player_id: PlayerId, created_at: Timestamp) -> PuzzleRow {
    PuzzleRow {
        id: PuzzleId { game_id: game_id.clone(), ply },
        player_id,
        position: Board::start(),
        played: place("c4"),
        loss: 8,
        solution: place("d3"),
        move_values: r#"[{"move":"d3","value":0,"exact":false}]"#.into(),
        attempts: 0,
        solved_at: None,
        created_at,
    }
}

async fn puzzles_are_added_once_and_read_back_exactly(db: Db) {
    let store = &db.store;
    let game = finished_game(store).await;
    let first = puzzle(&game, 1, player(5), T0);
    let second = PuzzleRow { played: Move::Pass, ..puzzle(&game, 2, player(6), T0.plus(1)) };
    assert_eq!(store.add_puzzles(&[first.clone(), second.clone()]).await.unwrap(), 2);
    assert_eq!(store.puzzle(&first.id).await.unwrap(), Some(first.clone()));
    assert_eq!(store.puzzle(&second.id).await.unwrap(), Some(second.clone()));
    // The same game analysed again adds nothing twice and changes nothing.
    let again = PuzzleRow { loss: 20, ..first.clone() };
    assert_eq!(store.add_puzzles(&[again, second]).await.unwrap(), 0);
    assert_eq!(store.puzzle(&first.id).await.unwrap(), Some(first));
    let unknown = PuzzleId { game_id: GameId::generate(), ply: 1 };
    assert_eq!(store.puzzle(&unknown).await.unwrap(), None);
    let orphan = puzzle(&unknown.game_id, 1, player(5), T0);
    assert_not_found(store.add_puzzles(&[orphan]).await);
    assert_eq!(store.puzzle(&unknown).await.unwrap(), None);
}

async fn a_players_puzzles_come_unsolved_first_then_by_loss_then_newest_with_their_counts(db: Db) {
    let store = &db.store;
    let (owner, other) = (player(7), player(8));
    assert_eq!(store.puzzle_counts(&owner).await.unwrap(), PuzzleCounts::default());
    let game = finished_game(store).await;
    let puzzles: Vec<PuzzleRow> =
        (1..=4).map(|ply| puzzle(&game, ply, owner.clone(), T0.plus(i64::from(ply)))).collect();
    store.add_puzzles(&puzzles).await.unwrap();
    store.add_puzzles(&[puzzle(&game, 5, other.clone(), T0.plus(9))]).await.unwrap();
    store.record_attempt(&puzzles[3].id, &owner, true, T0.plus(10)).await.unwrap();
    // The biggest loss teaches most and comes first; among equal losses the newest.
    let small = PuzzleRow { loss: 6, ..puzzle(&game, 6, owner.clone(), T0.plus(20)) };
    let big = PuzzleRow { loss: 12, ..puzzle(&game, 7, owner.clone(), T0.plus(20)) };
    store.add_puzzles(&[small, big]).await.unwrap();
    let order: Vec<u32> = store
        .player_puzzles(&owner, 10)
        .await
        .unwrap()
        .iter()
        .map(|puzzle| puzzle.id.ply)
        .collect();
    assert_eq!(order, [7, 3, 2, 1, 6, 4]);
    let first_two = store.player_puzzles(&owner, 2).await.unwrap();
    assert_eq!(first_two.iter().map(|p| p.id.ply).collect::<Vec<_>>(), [7, 3]);
    assert_eq!(store.puzzle_counts(&owner).await.unwrap(), PuzzleCounts { total: 6, solved: 1 });
    assert_eq!(store.puzzle_counts(&other).await.unwrap(), PuzzleCounts { total: 1, solved: 0 });
}

async fn only_the_puzzles_player_answers_and_the_first_right_answer_solves_it(db: Db) {
    let store = &db.store;
    let owner = player(9);
    let game = finished_game(store).await;
    let row = puzzle(&game, 3, owner.clone(), T0);
    store.add_puzzles(std::slice::from_ref(&row)).await.unwrap();
    assert_not_found(store.record_attempt(&row.id, &player(10), true, T0.plus(1)).await);
    let wrong = store.record_attempt(&row.id, &owner, false, T0.plus(2)).await.unwrap();
    assert_eq!((wrong.attempts, wrong.solved_at), (1, None));
    let right = store.record_attempt(&row.id, &owner, true, T0.plus(3)).await.unwrap();
    assert_eq!((right.attempts, right.solved_at), (2, Some(T0.plus(3))));
    let later = store.record_attempt(&row.id, &owner, true, T0.plus(4)).await.unwrap();
    assert_eq!((later.attempts, later.solved_at), (3, Some(T0.plus(3))));
    let unknown = PuzzleId { game_id: game, ply: 4 };
    assert_not_found(store.record_attempt(&unknown, &owner, true, T0.plus(5)).await);
}

#[tokio::test]
async fn a_postgres_connection_cut_while_idle_is_replaced_before_its_next_use() {
    storage_support::run_postgres(|db| async move {
        let game = new_game();
        db.store.create_game(&game).await.unwrap();
        // The server hangs up on every connection of the store, which does not hear of it.
        let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&db.url).await.unwrap();
        admin
            .execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
            )
            .await
            .unwrap();
        sqlx::Connection::close(admin).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(1_200)).await;
        assert_eq!(db.store.load_game(&game.id).await.unwrap().game, created(&game));
    })
    .await;
}
