//! Ranked play: signed-in players are paired by Elo, the result moves both ratings once, and
//! the leaderboard and profiles show it.

use serde_json::{Value, json};

use crate::helpers::{Socket, TestApp, User, spawn_app_with};
use crate::oidc_support::{local_provider, named_account, sign_in};

/// A server signing in at the local provider; `None` when the test is skipped without it.
pub(crate) async fn app() -> Option<TestApp> {
    let provider = local_provider()?;
    let app = spawn_app_with(|settings| {
        settings.oidc = Some(provider.settings());
        settings.computer_after_ms = 600_000;
    })
    .await;
    Some(app)
}

/// Pairs `ann` and `bob` in the ranked queue; returns the game id.
pub(crate) async fn pair(ann: &User, bob: &User) -> String {
    let mut ann_queue = ann.queue().await;
    let mut bob_queue = bob.queue().await;
    ann_queue.send(json!({ "type": "seek", "queue": "ranked" })).await;
    assert_eq!(ann_queue.expect("searching").await["queue"], "ranked");
    bob_queue.send(json!({ "type": "seek", "queue": "ranked" })).await;
    let ann_paired = ann_queue.until("paired").await;
    let bob_paired = bob_queue.until("paired").await;
    assert_eq!(ann_paired["game_id"], bob_paired["game_id"]);
    ann_paired["game_id"].as_str().unwrap().to_owned()
}

/// Pairs `ann` (seeking in `ann_pools`) and `bob` (in `bob_pools`) in the ranked queue;
/// returns the game id and the pool it was paired in.
async fn pair_in(
    ann: &User,
    ann_pools: &[&str],
    bob: &User,
    bob_pools: &[&str],
) -> (String, Value) {
    let mut ann_queue = ann.queue().await;
    let mut bob_queue = bob.queue().await;
    ann_queue.send(json!({ "type": "seek", "queue": "ranked", "pools": ann_pools })).await;
    assert_eq!(ann_queue.expect("searching").await["pools"], json!(ann_pools));
    bob_queue.send(json!({ "type": "seek", "queue": "ranked", "pools": bob_pools })).await;
    let ann_paired = ann_queue.until("paired").await;
    let bob_paired = bob_queue.until("paired").await;
    assert_eq!(ann_paired["game_id"], bob_paired["game_id"]);
    assert_eq!(ann_paired["pool"], bob_paired["pool"]);
    (ann_paired["game_id"].as_str().unwrap().to_owned(), ann_paired["pool"].clone())
}

/// Joins `id` as `user`: the socket and the colour they play.
async fn seat(user: &User, id: &str) -> (Socket, String) {
    let (socket, view) = user.join(id).await;
    assert_eq!(view["mode"], "ranked");
    (socket, view["you"].as_str().unwrap().to_owned())
}

/// Plays the first six plies of the shortest game: three discs a side, so that a resignation
/// counts (a ranked game resigned sooner is aborted). The sockets are Black's and White's.
async fn open(black: &mut Socket, white: &mut Socket) {
    for (n, square) in ["d3", "c3", "b3", "d2", "e1", "d6"].into_iter().enumerate() {
        let (mover, other) =
            if n % 2 == 0 { (&mut *black, &mut *white) } else { (&mut *white, &mut *black) };
        mover.play(square).await;
        other.expect("moved").await;
    }
}

/// Alice's and Bob's sockets on game `id`, opened: each has placed three discs.
async fn opened(alice: &User, bob: &User, id: &str) -> (Socket, String, Socket) {
    let (mut alice_game, alice_color) = seat(alice, id).await;
    let (mut bob_game, _) = seat(bob, id).await;
    if alice_color == "black" {
        open(&mut alice_game, &mut bob_game).await;
    } else {
        open(&mut bob_game, &mut alice_game).await;
    }
    (alice_game, alice_color, bob_game)
}

/// Alice and Bob play a ranked game that Alice resigns after the opening; returns both and the
/// game's id once the ratings have moved.
pub(crate) async fn alice_resigns_to_bob(app: &TestApp) -> (User, User, String) {
    let alice = named_account(app, "alice-sub", "Alice").await;
    let bob = named_account(app, "bob-sub", "Bob").await;
    let id = pair(&alice, &bob).await;
    let (mut game, _, _bob_game) = opened(&alice, &bob, &id).await;
    game.send(json!({ "type": "resign" })).await;
    game.until("rating_changed").await;
    (alice, bob, id)
}

#[actix_web::test]
async fn an_account_without_a_public_name_must_choose_one_first() {
    let Some(app) = app().await else { return };
    let (user, _) = sign_in(&app, "alice-sub").await;
    let mut queue = user.queue().await;
    queue.send(json!({ "type": "seek", "queue": "ranked" })).await;
    assert_eq!(queue.expect("error").await["code"], "name_required");
}

#[actix_web::test]
async fn a_ranked_result_moves_both_ratings_and_shows_everywhere() {
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let id = pair(&alice, &bob).await;
    let (mut alice_game, alice_color, mut bob_game) = opened(&alice, &bob, &id).await;
    // While it is played, each name has its rating in the game's pool beside it.
    let live: Value = alice.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    let start = json!({ "rating": 1200, "provisional": true });
    assert_eq!(live["ratings"], json!({ "pool": "30s", "black": start, "white": start }));

    alice_game.send(json!({ "type": "resign" })).await;

    let ended = bob_game.until("ended").await;
    assert_eq!(ended["result"]["reason"], "resignation");
    let winner = if alice_color == "black" { "white" } else { "black" };
    let loser = alice_color.as_str();
    let rating = bob_game.expect("rating_changed").await;
    assert_eq!(
        rating[winner],
        json!({ "before": 1200, "after": 1220, "change": 20, "provisional": true })
    );
    assert_eq!(
        rating[loser],
        json!({ "before": 1200, "after": 1180, "change": -20, "provisional": true })
    );
    assert_eq!(alice_game.until("rating_changed").await, rating);

    let game: Value = alice.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(game["rated"], true);
    assert_eq!(
        game["rating_changes"],
        json!({ "black": rating["black"], "white": rating["white"] })
    );
    // Once rated, the ratings shown are still those the game was played at.
    assert_eq!(game["ratings"], json!({ "pool": "30s", "black": start, "white": start }));

    let board: Value = app.get("/api/leaderboard").await.json().await.unwrap();
    assert_eq!(
        board,
        json!({
            "page": 1, "pages": 1, "per_page": 25, "total": 2, "pool": "30s",
            "pools": [
                { "key": "30s", "name": "30 s a move" },
                { "key": "blitz", "name": "Blitz 3+2" },
                { "key": "rapid", "name": "Rapid 10+5" },
                { "key": "daily", "name": "Daily, 2 days a move" },
                { "key": "xot", "name": "XOT 5+3" },
            ],
            "players": [
                { "rank": 1, "name": "Bob", "rating": 1220, "provisional": true,
                  "rated_games": 1, "wins": 1, "draws": 0, "losses": 0 },
                { "rank": 2, "name": "Alice", "rating": 1180, "provisional": true,
                  "rated_games": 1, "wins": 0, "draws": 0, "losses": 1 },
            ],
        })
    );

    let profile: Value = app.get("/api/players/alice").await.json().await.unwrap();
    assert_eq!(profile["name"], "Alice");
    // The game began d3 c3: the Diagonal opening, named in the list of games.
    assert_eq!(profile["recent_games"][0]["opening_name"], "Diagonal");
    assert_eq!(profile["rating"], 1180);
    assert_eq!(profile["rank"], 2);
    assert_eq!(profile["history"].as_array().unwrap().len(), 1);
    assert_eq!(profile["history"][0]["game_id"], id);
    assert_eq!(profile["history"][0]["rating"], 1180);
    let recent = &profile["recent_games"][0];
    assert_eq!(recent["id"], id);
    assert_eq!(recent["opponent"], "Bob");
    assert_eq!(recent["result"], "loss");
    assert_eq!(recent["rating_change"], -20);
    assert_eq!(recent["color"], alice_color);

    let me: Value = alice.get("/api/me").await.json().await.unwrap();
    assert_eq!(me["account"]["rating"], 1180);
    assert_eq!(me["account"]["rated_games"], 1);
}

#[actix_web::test]
async fn two_accounts_play_ranked_again_after_a_result() {
    let Some(app) = app().await else { return };
    let (alice, bob, id) = alice_resigns_to_bob(&app).await;
    // Alice at 1,180 and Bob at 1,220 are within the starting gap, so they meet again at once.
    let again = pair(&alice, &bob).await;
    assert_ne!(again, id);
}

#[actix_web::test]
async fn an_unknown_player_has_no_profile() {
    let Some(app) = app().await else { return };
    let response = app.get("/api/players/nobody").await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.json::<Value>().await.unwrap()["error"]["code"], "not_found");
    assert_eq!(app.get("/api/players/..%2Fetc").await.status(), 404);
}

#[actix_web::test]
async fn a_leaderboard_page_must_be_a_number_from_one() {
    let Some(app) = app().await else { return };
    assert_eq!(app.get("/api/leaderboard?page=0").await.status(), 400);
    assert_eq!(app.get("/api/leaderboard?page=x").await.status(), 400);
    let empty: Value = app.get("/api/leaderboard?page=9").await.json().await.unwrap();
    assert_eq!(empty["players"], json!([]));
    assert_eq!(empty["pages"], 1);
}

#[actix_web::test]
async fn deleting_an_account_signs_out_and_keeps_its_games_under_a_deleted_player() {
    let Some(app) = app().await else { return };
    let (alice, bob, id) = alice_resigns_to_bob(&app).await;

    let response = alice.delete("/api/account").await;
    assert_eq!(response.status(), 204);
    let cleared = response.headers()["set-cookie"].to_str().unwrap();
    assert!(cleared.starts_with("outflank_session=;"), "{cleared}");

    assert_eq!(app.get("/api/players/Alice").await.status(), 404);
    let game: Value = bob.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    let names = [&game["players"]["black"]["name"], &game["players"]["white"]["name"]];
    assert!(names.contains(&&json!("Deleted player")), "{names:?}");
    let board: Value = app.get("/api/leaderboard").await.json().await.unwrap();
    assert_eq!(board["total"], 1);
    // The old cookie, wherever it was saved, no longer works: nobody can act as Alice.
    assert_eq!(crate::session::session_state(alice.get("/api/me").await).await, "revoked");
    assert_eq!(alice.get("/api/queue/ws").await.status(), 401);
}

#[actix_web::test]
async fn an_account_deleted_and_made_again_keeps_its_rating() {
    let Some(app) = app().await else { return };
    let (alice, _bob, _) = alice_resigns_to_bob(&app).await;
    assert_eq!(alice.delete("/api/account").await.status(), 204);
    let (again, _) = sign_in(&app, "alice-sub").await;
    let me: Value = again.get("/api/me").await.json().await.unwrap();
    assert_eq!(me["account"]["rating"], 1180);
    assert_eq!(me["account"]["rated_games"], 1);
    assert_eq!(me["account"]["name"], Value::Null);
}

#[actix_web::test]
async fn a_ranked_game_resigned_before_three_moves_a_side_is_aborted_and_unrated() {
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let id = pair(&alice, &bob).await;
    let (mut game, _) = seat(&alice, &id).await;
    game.send(json!({ "type": "resign" })).await;
    let ended = game.until("ended").await;
    assert_eq!(ended["status"], "aborted", "{ended}");
    assert_eq!(ended["result"]["reason"], "aborted", "{ended}");
    let stored: Value = alice.get(&format!("/api/games/{id}")).await.json().await.unwrap();
    assert_eq!(stored["status"], "aborted");
    let me: Value = alice.get("/api/me").await.json().await.unwrap();
    assert_eq!(
        (me["account"]["rating"].clone(), me["account"]["rated_games"].clone()),
        (json!(1200), json!(0))
    );
}

#[actix_web::test]
async fn the_rematch_of_a_ranked_game_is_unrated() {
    let Some(app) = app().await else { return };
    let (alice, bob, id) = alice_resigns_to_bob(&app).await;
    let (mut alice_game, _) = alice.join(&id).await;
    let (mut bob_game, _) = bob.join(&id).await;
    alice_game.send(json!({ "type": "rematch" })).await;
    bob_game.send(json!({ "type": "rematch" })).await;
    let started = alice_game.until("rematch_started").await;
    let rematch = started["game_id"].as_str().unwrap();
    let (_, view) = alice.join(rematch).await;
    assert_eq!(view["mode"], "quick");
    let stored: Value = alice.get(&format!("/api/games/{rematch}")).await.json().await.unwrap();
    assert_eq!(stored["rated"], false);
}

#[actix_web::test]
async fn only_three_results_a_day_between_the_same_two_accounts_are_rated() {
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let mut ratings = Vec::new();
    for _ in 0..4 {
        let id = pair(&alice, &bob).await;
        let (mut game, _, _bob_game) = opened(&alice, &bob, &id).await;
        game.send(json!({ "type": "resign" })).await;
        game.until("ended").await;
        let me: Value = alice.get("/api/me").await.json().await.unwrap();
        ratings.push(me["account"]["rated_games"].as_i64().unwrap());
    }
    assert_eq!(ratings, [1, 2, 3, 3]);
}

#[actix_web::test]
async fn an_imported_game_stays_off_the_importers_profile() {
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let played = crate::analysis::played_on_one_device(&alice, crate::analysis::SHORTEST).await;
    crate::analysis::import_finished(&alice, crate::analysis::SHORTEST).await;
    let profile: Value = app.get("/api/players/alice").await.json().await.unwrap();
    let recent = profile["recent_games"].as_array().unwrap();
    let ids: Vec<&Value> = recent.iter().map(|game| &game["id"]).collect();
    assert_eq!(ids, [&json!(played)]);
}

#[actix_web::test]
async fn a_seek_without_pools_waits_in_the_thirty_second_pool() {
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let mut queue = alice.queue().await;
    queue.send(json!({ "type": "seek", "queue": "ranked" })).await;
    assert_eq!(
        queue.expect("searching").await,
        json!({ "type": "searching", "queue": "ranked", "pools": ["30s"], "waited_ms": 0 })
    );
}

#[actix_web::test]
async fn a_seek_in_no_pool_or_an_unknown_pool_is_refused_and_waits_nowhere() {
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let mut queue = alice.queue().await;
    queue.send(json!({ "type": "seek", "queue": "ranked", "pools": ["blitz", "bullet"] })).await;
    assert_eq!(
        queue.expect("error").await,
        json!({ "type": "error", "code": "bad_pool",
                "message": "\"bullet\" is not a rating pool: choose 30s, blitz, rapid, daily or xot" })
    );
    queue.send(json!({ "type": "seek", "queue": "ranked", "pools": [] })).await;
    assert_eq!(
        queue.expect("error").await,
        json!({ "type": "error", "code": "bad_pool",
                "message": "choose at least one pool: 30s, blitz, rapid, daily or xot" })
    );
    // Refused twice, so not searching: a seek now is accepted.
    queue.send(json!({ "type": "seek", "queue": "ranked", "pools": ["rapid"] })).await;
    assert_eq!(queue.expect("searching").await["pools"], json!(["rapid"]));
}

#[actix_web::test]
async fn a_ranked_blitz_game_is_played_at_three_plus_two_and_rated_in_the_blitz_pool() {
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let (id, pool) = pair_in(&alice, &["blitz"], &bob, &["blitz"]).await;
    assert_eq!(pool, "blitz");
    let (_, view) = alice.join(&id).await;
    assert_eq!((&view["control"], &view["move_time_ms"]), (&json!("3+2"), &Value::Null));
    let (mut game, _, _bob_game) = opened(&alice, &bob, &id).await;
    game.send(json!({ "type": "resign" })).await;
    game.until("rating_changed").await;

    let blitz: Value = app.get("/api/leaderboard?pool=blitz").await.json().await.unwrap();
    let names: Vec<&str> =
        blitz["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Bob", "Alice"]);
    let default: Value = app.get("/api/leaderboard").await.json().await.unwrap();
    assert_eq!(default["total"], 0, "nothing rated at 30 s a move");
}

#[actix_web::test]
async fn players_seeking_in_several_pools_meet_in_the_one_they_share() {
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let (id, pool) = pair_in(&alice, &["blitz", "rapid"], &bob, &["daily", "rapid"]).await;
    assert_eq!(pool, "rapid");
    let (_, view) = bob.join(&id).await;
    assert_eq!(view["control"], "10+5");
}

#[actix_web::test]
async fn a_ranked_xot_game_starts_from_an_opening_at_five_plus_three_and_is_rated_in_the_xot_pool()
{
    let Some(app) = app().await else { return };
    let alice = named_account(&app, "alice-sub", "Alice").await;
    let bob = named_account(&app, "bob-sub", "Bob").await;
    let (id, pool) = pair_in(&alice, &["xot"], &bob, &["xot"]).await;
    assert_eq!(pool, "xot");
    let (mut alice_game, alice_color) = seat(&alice, &id).await;
    let (mut bob_game, _) = seat(&bob, &id).await;
    let (_, view) = alice.join(&id).await;
    assert_eq!(view["control"], "5+3");
    assert_eq!(view["moves"].as_array().unwrap().len(), 8);
    assert!(view["opening"].is_string(), "{view}");
    // Three discs a side after the opening, so that a resignation counts.
    let (black, white) = if alice_color == "black" {
        (&mut alice_game, &mut bob_game)
    } else {
        (&mut bob_game, &mut alice_game)
    };
    let mut position = view;
    for n in 0..6 {
        let (mover, other) =
            if n % 2 == 0 { (&mut *black, &mut *white) } else { (&mut *white, &mut *black) };
        let square = crate::helpers::legal_squares(&position)[0].clone();
        mover.play(&square).await;
        position = other.expect("moved").await;
        if position["to_move"] != if n % 2 == 0 { "white" } else { "black" } {
            // A pass: nobody can be sure of three discs a side; end the story here.
            return;
        }
    }
    alice_game.send(json!({ "type": "resign" })).await;
    alice_game.until("rating_changed").await;
    let board: Value = app.get("/api/leaderboard?pool=xot").await.json().await.unwrap();
    assert_eq!(board["total"], 2);
    let default: Value = app.get("/api/leaderboard").await.json().await.unwrap();
    assert_eq!(default["total"], 0);
}

#[actix_web::test]
async fn an_account_is_offered_the_computer_level_nearest_its_own_rating() {
    let Some(app) = app().await else { return };
    let ann = named_account(&app, "ann-sub", "Ann").await;
    let levels: Value = ann.get("/api/computer/levels").await.json().await.unwrap();
    assert_eq!((&levels["rating"], &levels["own_rating"]), (&json!(1_200), &json!(true)));
}
