//! Challenges and notifications in the store, each story on SQLite and on PostgreSQL: a
//! challenge is answered once and not after its expiry, a sender keeps three open at most,
//! and notifications are kept 30 days, counted unread and marked read by their owner only.

#[macro_use]
mod storage_support;

use outflank_api::accounts::PublicName;
use outflank_api::domain::{
    ChallengeId, ChallengeStatus, ColourChoice, EndReason, GameId, GameStatus, Mode,
    NotificationKind, PlayerId, Timestamp, Winner,
};
use outflank_api::live::TimeControl;
use outflank_api::social::{
    Challenge, LIVE_CHALLENGE_MS, MAX_OPEN_CHALLENGES, NOTIFICATIONS_KEPT_MS,
};
use outflank_api::storage::{
    Adopted, ChallengeRow, DbError, FinishedGame, FollowRow, MAX_FOLLOWS, NewGame, SeatRow, Store,
};
use outflank_engine::Board;
use serde_json::json;
use storage_support::Db;

on_both_backends!(
    a_challenge_is_stored_with_its_players_names_and_listed_for_both,
    a_challenge_takes_one_answer,
    a_challenge_takes_no_answer_after_its_expiry,
    a_sender_keeps_three_challenges_open_at_most,
    a_challenge_refused_by_a_block_is_stored_declined_and_counts_for_nothing,
    an_accepted_challenge_whose_game_failed_opens_again,
    notifications_are_listed_newest_first_with_the_unread_count,
    notifications_are_marked_read_by_their_owner_only,
    notifications_older_than_thirty_days_are_forgotten,
    follows_are_listed_counted_and_lifted,
    following_again_at_the_limit_is_no_error_but_one_more_is,
    a_deleted_account_follows_nobody_and_nobody_follows_it,
    a_follower_sees_the_game_a_followed_player_is_playing,
    a_guests_finished_games_move_to_the_account_once,
    a_guest_keeps_games_in_progress_and_games_against_the_account,
);

const T0: Timestamp = Timestamp(1_764_000_000_000);

async fn account(store: &Store, subject: &str, name: &str) -> PlayerId {
    let account = store.sign_in("https://issuer.example", subject, "Guest", T0).await.unwrap();
    store.set_account_name(&account.player_id, &PublicName::parse(name).unwrap()).await.unwrap();
    account.player_id
}

fn challenge(from: &PlayerId, to: &PlayerId, at: Timestamp) -> ChallengeRow {
    let control = Some(TimeControl::fischer(3, 2));
    ChallengeRow {
        challenge: Challenge {
            id: ChallengeId::generate(),
            from: "Ann".into(),
            to: "Bob".into(),
            control,
            colour: ColourChoice::White,
            rated: true,
            xot: false,
            status: ChallengeStatus::Open,
            created_at: at,
            expires_at: Challenge::expiry(control, at),
            game_id: None,
        },
        challenger: from.clone(),
        challenged: to.clone(),
    }
}

async fn a_challenge_is_stored_with_its_players_names_and_listed_for_both(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let row = challenge(&ann, &bob, T0);
    assert!(store.create_challenge(&row).await.unwrap());
    assert_eq!(store.challenge(&row.challenge.id).await.unwrap(), row);
    assert_eq!(store.open_challenges(&ann, T0).await.unwrap(), std::slice::from_ref(&row));
    assert_eq!(store.open_challenges(&bob, T0).await.unwrap(), std::slice::from_ref(&row));
    let expired = row.challenge.expires_at;
    assert_eq!(store.open_challenges(&bob, expired).await.unwrap(), []);
}

async fn a_challenge_takes_one_answer(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let row = challenge(&ann, &bob, T0);
    store.create_challenge(&row).await.unwrap();
    let game = GameId::generate();
    let id = &row.challenge.id;
    let accepted = ChallengeStatus::Accepted;
    assert!(store.answer_challenge(id, accepted, T0.plus(5), Some(&game)).await.unwrap());
    let declined = ChallengeStatus::Declined;
    assert!(!store.answer_challenge(id, declined, T0.plus(6), None).await.unwrap());
    let stored = store.challenge(id).await.unwrap().challenge;
    assert_eq!((stored.status, stored.game_id), (ChallengeStatus::Accepted, Some(game)));
    assert_eq!(store.open_challenges(&bob, T0.plus(7)).await.unwrap(), []);
}

async fn a_challenge_takes_no_answer_after_its_expiry(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let row = challenge(&ann, &bob, T0);
    store.create_challenge(&row).await.unwrap();
    let at = row.challenge.expires_at;
    let id = &row.challenge.id;
    let game = GameId::generate();
    assert!(!store.answer_challenge(id, ChallengeStatus::Accepted, at, Some(&game)).await.unwrap());
    assert_eq!(store.challenge(id).await.unwrap().challenge.status, ChallengeStatus::Open);
}

async fn a_sender_keeps_three_challenges_open_at_most(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    for n in 0..MAX_OPEN_CHALLENGES {
        assert!(store.create_challenge(&challenge(&ann, &bob, T0.plus(n.into()))).await.unwrap());
    }
    assert!(!store.create_challenge(&challenge(&ann, &bob, T0.plus(10))).await.unwrap());
    // Another sender is not held back by Ann's, and Ann may send again once one expired.
    assert!(store.create_challenge(&challenge(&bob, &ann, T0.plus(10))).await.unwrap());
    let later = T0.plus(LIVE_CHALLENGE_MS);
    assert!(store.create_challenge(&challenge(&ann, &bob, later)).await.unwrap());
}

async fn a_challenge_refused_by_a_block_is_stored_declined_and_counts_for_nothing(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    for n in 0..MAX_OPEN_CHALLENGES {
        let mut refused = challenge(&ann, &bob, T0.plus(n.into()));
        refused.challenge.status = ChallengeStatus::Declined;
        assert!(store.create_challenge(&refused).await.unwrap());
    }
    assert_eq!(store.open_challenges(&bob, T0.plus(5)).await.unwrap(), []);
    assert!(store.create_challenge(&challenge(&ann, &bob, T0.plus(5))).await.unwrap());
}

async fn an_accepted_challenge_whose_game_failed_opens_again(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let row = challenge(&ann, &bob, T0);
    store.create_challenge(&row).await.unwrap();
    let id = &row.challenge.id;
    let game = GameId::generate();
    store.answer_challenge(id, ChallengeStatus::Accepted, T0.plus(1), Some(&game)).await.unwrap();
    store.reopen_challenge(id).await.unwrap();
    assert_eq!(store.challenge(id).await.unwrap(), row);
}

async fn notifications_are_listed_newest_first_with_the_unread_count(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let kind = NotificationKind::ChallengeReceived;
    let first = store.notify(&ann, kind, json!({ "n": 1 }), T0).await.unwrap();
    let second = store.notify(&ann, kind, json!({ "n": 2 }), T0.plus(1)).await.unwrap();
    store.notify(&bob, kind, json!({ "n": 3 }), T0.plus(2)).await.unwrap();
    let listed = store.notifications(&ann, T0.plus(3)).await.unwrap();
    assert_eq!(listed, [second, first]);
    assert_eq!(store.unread_notifications(&ann, T0.plus(3)).await.unwrap(), 2);
    assert_eq!(store.unread_notifications(&bob, T0.plus(3)).await.unwrap(), 1);
}

async fn notifications_are_marked_read_by_their_owner_only(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let kind = NotificationKind::ChallengeAccepted;
    let anns = store.notify(&ann, kind, json!({}), T0).await.unwrap();
    let other = store.notify(&ann, kind, json!({}), T0).await.unwrap();
    let bobs = store.notify(&bob, kind, json!({}), T0).await.unwrap();
    let ids = [anns.id.clone(), bobs.id.clone()];
    assert_eq!(store.mark_notifications_read(&ann, Some(&ids), T0.plus(1)).await.unwrap(), 1);
    assert_eq!(store.unread_notifications(&bob, T0.plus(1)).await.unwrap(), 1);
    let listed = store.notifications(&ann, T0.plus(1)).await.unwrap();
    let read: Vec<(String, bool)> =
        listed.iter().map(|n| (n.id.to_string(), n.read)).collect::<Vec<_>>();
    assert!(read.contains(&(anns.id.to_string(), true)));
    assert!(read.contains(&(other.id.to_string(), false)));
    assert_eq!(store.mark_notifications_read(&ann, None, T0.plus(2)).await.unwrap(), 1);
    assert_eq!(store.unread_notifications(&ann, T0.plus(2)).await.unwrap(), 0);
    assert_eq!(store.mark_notifications_read(&ann, Some(&[]), T0.plus(2)).await.unwrap(), 0);
}

async fn notifications_older_than_thirty_days_are_forgotten(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let kind = NotificationKind::ReportActedOn;
    store.notify(&ann, kind, json!({ "old": true }), T0).await.unwrap();
    let month = T0.plus(NOTIFICATIONS_KEPT_MS);
    assert_eq!(store.notifications(&ann, month.plus(1)).await.unwrap(), []);
    assert_eq!(store.unread_notifications(&ann, month.plus(1)).await.unwrap(), 0);
    let fresh = store.notify(&ann, kind, json!({ "old": false }), month.plus(1)).await.unwrap();
    assert_eq!(store.notifications(&ann, T0).await.unwrap(), [fresh]);
}

async fn follows_are_listed_counted_and_lifted(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let cid = account(store, "c", "Cid").await;
    assert!(store.follow(&ann, &cid, T0).await.unwrap());
    assert!(store.follow(&ann, &bob, T0.plus(1)).await.unwrap());
    assert!(!store.follow(&ann, &bob, T0.plus(2)).await.unwrap(), "followed already");
    assert!(store.follow(&bob, &cid, T0).await.unwrap());
    let following = store.following(&ann).await.unwrap();
    let expected = [
        FollowRow { followed: bob.clone(), name: "Bob".into(), since: T0.plus(1) },
        FollowRow { followed: cid.clone(), name: "Cid".into(), since: T0 },
    ];
    assert_eq!(following, expected);
    assert!(store.follows(&ann, &bob).await.unwrap());
    assert!(!store.follows(&bob, &ann).await.unwrap());
    assert_eq!(store.follow_counts(&cid).await.unwrap(), (2, 0));
    assert_eq!(store.follow_counts(&ann).await.unwrap(), (0, 2));
    let mut followers = store.followers_of(&cid).await.unwrap();
    followers.sort();
    let mut expected = vec![ann.clone(), bob.clone()];
    expected.sort();
    assert_eq!(followers, expected);
    assert!(store.unfollow(&ann, &cid).await.unwrap());
    assert!(!store.unfollow(&ann, &cid).await.unwrap());
    assert_eq!(store.follow_counts(&cid).await.unwrap(), (1, 0));
}

/// A game between `black` and `white` (ids, or nobody) made at `at`.
fn game(black: Option<&PlayerId>, white: Option<&PlayerId>, at: Timestamp) -> NewGame {
    let seat = |id: Option<&PlayerId>, name: &str| SeatRow { id: id.cloned(), name: name.into() };
    NewGame {
        id: GameId::generate(),
        mode: Mode::Friend,
        level: None,
        black: seat(black, "Black"),
        white: seat(white, "White"),
        start_position: Board::start(),
        move_time_ms: Some(30_000),
        room_code: None,
        rated: false,
        created_at: at,
        turn_started_at: Some(at),
        origin: None,
        stand_in: false,
        time_control: None,
        opening: None,
    }
}

async fn finish(store: &Store, id: &GameId, at: Timestamp) {
    let end = FinishedGame {
        status: GameStatus::Finished,
        winner: Some(Winner::Black),
        end_reason: EndReason::Resignation,
        black_discs: 40,
        white_discs: 24,
        finished_at: at,
        rated: None,
        review: None,
    };
    store.finish_game(id, &end).await.unwrap();
}

async fn a_follower_sees_the_game_a_followed_player_is_playing(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let cid = account(store, "c", "Cid").await;
    store.follow(&ann, &bob, T0).await.unwrap();
    store.follow(&ann, &cid, T0).await.unwrap();
    let over = game(Some(&bob), Some(&cid), T0);
    store.create_game(&over).await.unwrap();
    finish(store, &over.id, T0.plus(10)).await;
    let playing = game(Some(&cid), Some(&bob), T0.plus(20));
    store.create_game(&playing).await.unwrap();
    let mut seen = store.games_of_followed(&ann, T0).await.unwrap();
    seen.sort();
    let mut expected = vec![(bob.clone(), playing.id.clone()), (cid.clone(), playing.id.clone())];
    expected.sort();
    assert_eq!(seen, expected);
    assert_eq!(store.games_of_followed(&bob, T0).await.unwrap(), []);
}

async fn guest(store: &Store, nickname: &str) -> PlayerId {
    let id = PlayerId::generate();
    store.upsert_guest(&id, nickname, T0).await.unwrap();
    id
}

async fn a_guests_finished_games_move_to_the_account_once(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let gus = guest(store, "Gus").await;
    let other = guest(store, "Olga").await;
    let against_guest = game(Some(&gus), Some(&other), T0);
    let against_computer = game(None, Some(&gus), T0);
    let both_seats = game(Some(&gus), Some(&gus), T0);
    for played in [&against_guest, &against_computer, &both_seats] {
        store.create_game(played).await.unwrap();
        finish(store, &played.id, T0.plus(5)).await;
    }
    let kept = store.adopt_guest(&gus, &ann).await.unwrap();
    assert_eq!(kept, Some(Adopted { games: 3, puzzles: 0 }));
    let mut recent: Vec<GameId> =
        store.recent_games(&ann, 10).await.unwrap().into_iter().map(|g| g.id).collect();
    recent.sort();
    let mut expected =
        vec![against_guest.id.clone(), against_computer.id.clone(), both_seats.id.clone()];
    expected.sort();
    assert_eq!(recent, expected);
    assert_eq!(store.recent_games(&gus, 10).await.unwrap(), []);
    assert_eq!(store.adopt_guest(&gus, &ann).await.unwrap(), None, "once");
    assert_eq!(store.adopt_guest(&ann, &ann).await.unwrap(), None);
    let bob = account(store, "b", "Bob").await;
    assert_eq!(store.adopt_guest(&ann, &bob).await.unwrap(), None, "an account is no guest");
}

async fn a_guest_keeps_games_in_progress_and_games_against_the_account(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let gus = guest(store, "Gus").await;
    let live = game(Some(&gus), None, T0);
    store.create_game(&live).await.unwrap();
    let against_ann = game(Some(&gus), Some(&ann), T0);
    store.create_game(&against_ann).await.unwrap();
    finish(store, &against_ann.id, T0.plus(5)).await;
    assert_eq!(store.adopt_guest(&gus, &ann).await.unwrap(), Some(Adopted::default()));
    let stored = store.game(&live.id).await.unwrap();
    assert_eq!(stored.black.id, Some(gus.clone()));
    let stored = store.game(&against_ann.id).await.unwrap();
    assert_eq!((stored.black.id, stored.white.id), (Some(gus), Some(ann)));
}

async fn following_again_at_the_limit_is_no_error_but_one_more_is(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let mut first = None;
    for n in 0..MAX_FOLLOWS {
        let other = guest(store, &format!("G{n}")).await;
        assert!(store.follow(&ann, &other, T0).await.unwrap());
        first.get_or_insert(other);
    }
    assert!(!store.follow(&ann, &first.unwrap(), T0).await.unwrap());
    let one_more = guest(store, "Last").await;
    assert!(matches!(store.follow(&ann, &one_more, T0).await, Err(DbError::Conflict)));
}

async fn a_deleted_account_follows_nobody_and_nobody_follows_it(db: Db) {
    let store = &db.store;
    let ann = account(store, "a", "Ann").await;
    let bob = account(store, "b", "Bob").await;
    let cid = account(store, "c", "Cid").await;
    store.follow(&ann, &bob, T0).await.unwrap();
    store.follow(&bob, &cid, T0).await.unwrap();
    store.delete_account(&bob, T0.plus(1)).await.unwrap();
    assert_eq!(store.following(&ann).await.unwrap(), []);
    assert_eq!(store.follow_counts(&cid).await.unwrap(), (0, 0));
}
