//! Playing a friend game across nodes.

use serde_json::{Value, json};

use crate::helpers::{Socket, TestApp, User, legal_squares};

/// Two players of one game, with their sockets, black first.
pub struct Table {
    pub black: (User, Socket),
    pub white: (User, Socket),
    pub id: String,
    /// The server the guest joined through: the game runs there.
    pub joiner_base: String,
    /// The position after the last move both have seen.
    pub position: Value,
}

/// Ann (on `host`) creates a room, Bob (on `guest`) joins it, both open the game where they
/// are connected.
pub async fn friend_game(host: &TestApp, guest: &TestApp) -> Table {
    let ann = host.user("Ann").await;
    let mut bob = host.user("Bob").await;
    bob.set_base(&guest.url);
    Table::between(ann, bob).await
}

impl Table {
    /// `ann` creates a room on her server, `bob` joins it on his; both open the game there.
    pub async fn between(ann: User, bob: User) -> Table {
        let room: Value = ann.post("/api/rooms", &json!({})).await.json().await.unwrap();
        let code = room["code"].as_str().unwrap().to_owned();
        let joined = bob.post(&format!("/api/rooms/{code}/join"), &json!({})).await;
        assert_eq!(joined.status(), 200);
        let id = joined.json::<Value>().await.unwrap()["game_id"].as_str().unwrap().to_owned();
        let (ann_socket, ann_view) = ann.join(&id).await;
        let (bob_socket, bob_view) = bob.join(&id).await;
        assert_eq!(ann_view["moves"], bob_view["moves"]);
        let joiner_base = bob.base().to_owned();
        if ann_view["you"] == "black" {
            Table {
                black: (ann, ann_socket),
                white: (bob, bob_socket),
                id,
                joiner_base,
                position: ann_view,
            }
        } else {
            Table {
                black: (bob, bob_socket),
                white: (ann, ann_socket),
                id,
                joiner_base,
                position: ann_view,
            }
        }
    }

    /// Both players open the game again where they now are; the snapshot, or `None` when the
    /// game cannot be reached yet.
    pub async fn rejoin(&mut self) -> Option<Value> {
        let (black, _) = self.black.0.try_join(&self.id).await?;
        let (white, view) = self.white.0.try_join(&self.id).await?;
        self.black.1 = black;
        self.white.1 = white;
        self.position = view.clone();
        Some(view)
    }

    /// The side to move plays its first legal square; both sockets see the move. Returns it.
    pub async fn play_one(&mut self) -> String {
        let square = legal_squares(&self.position)[0].clone();
        let (mover, watcher) = if self.position["to_move"] == "black" {
            (&mut self.black.1, &mut self.white.1)
        } else {
            (&mut self.white.1, &mut self.black.1)
        };
        let moved = mover.play(&square).await;
        let seen = watcher.until("moved").await;
        assert_eq!(seen["last_move"]["square"], square.as_str());
        assert_eq!(seen["version"], moved["version"]);
        self.position = moved;
        square
    }

    /// The moves stored for the game, as the API lists them.
    pub async fn stored_moves(&self, app: &TestApp) -> Vec<String> {
        let game: Value = app.get(&format!("/api/games/{}", self.id)).await.json().await.unwrap();
        game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_owned()).collect()
    }
}
