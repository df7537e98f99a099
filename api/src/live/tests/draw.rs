//! Draw offers: accepted, declined, declined by a move, and not spammed.

use outflank_engine::Color;

use super::*;
use crate::domain::{EndReason, Winner};

fn offer(state: &mut GameState, by: PlayerId, now: Timestamp) -> Result<Vec<Event>, CommandError> {
    state.apply(Command::player(by, Action::OfferDraw), now)
}

#[test]
fn a_draw_offer_then_acceptance_ends_in_an_agreed_draw() {
    let mut state = friend_game();
    assert_eq!(
        offer(&mut state, ann(), T0),
        Ok(vec![Event::DrawOffered { version: 1, by: Color::Black }])
    );
    let events = state.apply(Command::player(ben(), Action::AcceptDraw), T0.plus(1_000)).unwrap();
    let agreed = Ending { reason: EndReason::AgreedDraw, winner: Some(Winner::Draw) };
    assert!(
        matches!(events.as_slice(), [Event::Ended { version: 2, ending, .. }] if *ending == agreed)
    );
    assert_eq!(state.snapshot(T0).draw_offer, None);
}

#[test]
fn a_declined_draw_offer_leaves_the_game_going() {
    let mut state = friend_game();
    offer(&mut state, ann(), T0).unwrap();
    let events = state.apply(Command::player(ben(), Action::DeclineDraw), T0.plus(1_000)).unwrap();
    assert_eq!(events, [Event::DrawDeclined { version: 2, by: Color::White }]);
    assert_eq!(state.ending(), None);
    assert_eq!(state.snapshot(T0).draw_offer, None);
}

#[test]
fn a_move_by_the_opponent_declines_a_pending_offer() {
    let mut state = friend_game();
    play(&mut state, "d3", T0.plus(1_000));
    offer(&mut state, ann(), T0.plus(2_000)).unwrap();
    let events = play(&mut state, "c3", T0.plus(3_000));
    assert_eq!(events.first(), Some(&Event::DrawDeclined { version: 3, by: Color::White }));
    assert_eq!(state.snapshot(T0).draw_offer, None);
}

#[test]
fn the_offerers_own_move_keeps_the_offer_standing() {
    let mut state = friend_game();
    offer(&mut state, ann(), T0).unwrap();
    let events = play(&mut state, "d3", T0.plus(1_000));
    assert!(matches!(events.as_slice(), [Event::Moved { .. }]), "{events:?}");
    assert_eq!(state.snapshot(T0).draw_offer, Some(Color::Black));
}

#[test]
fn a_second_offer_too_soon_is_refused() {
    let mut state = friend_game();
    offer(&mut state, ann(), T0).unwrap();
    state.apply(Command::player(ben(), Action::DeclineDraw), T0).unwrap();
    play_line(&mut state, "d3 c3", T0);
    let version = state.version();
    assert_eq!(offer(&mut state, ann(), T0.plus(3_000)), Err(CommandError::DrawOfferTooSoon(2)));
    assert_eq!(state.version(), version);
}

#[test]
fn a_player_may_offer_again_after_four_plies() {
    let mut state = friend_game();
    offer(&mut state, ann(), T0).unwrap();
    state.apply(Command::player(ben(), Action::DeclineDraw), T0).unwrap();
    let now = play_line(&mut state, "d3 c3 b3 d2", T0);
    let events = offer(&mut state, ann(), now).unwrap();
    assert!(matches!(events.as_slice(), [Event::DrawOffered { by: Color::Black, .. }]));
}

#[test]
fn offering_twice_without_an_answer_is_refused() {
    let mut state = friend_game();
    offer(&mut state, ann(), T0).unwrap();
    assert_eq!(offer(&mut state, ann(), T0), Err(CommandError::DrawAlreadyOffered));
}

#[test]
fn offering_while_the_opponents_offer_stands_agrees_to_a_draw() {
    let mut state = friend_game();
    offer(&mut state, ann(), T0).unwrap();
    offer(&mut state, ben(), T0).unwrap();
    assert_eq!(state.ending(), Some(Ending::agreed_draw()));
}

#[test]
fn accepting_ones_own_offer_or_no_offer_is_refused() {
    let mut state = friend_game();
    assert_eq!(
        state.apply(Command::player(ben(), Action::AcceptDraw), T0),
        Err(CommandError::NoDrawOffer)
    );
    offer(&mut state, ann(), T0).unwrap();
    assert_eq!(
        state.apply(Command::player(ann(), Action::AcceptDraw), T0),
        Err(CommandError::NoDrawOffer)
    );
    assert_eq!(
        state.apply(Command::player(ann(), Action::DeclineDraw), T0),
        Err(CommandError::NoDrawOffer)
    );
}

#[test]
fn spectators_cannot_offer_or_answer_draws() {
    let mut state = friend_game();
    offer(&mut state, ann(), T0).unwrap();
    assert_eq!(offer(&mut state, zed(), T0), Err(CommandError::NotAPlayer));
    assert_eq!(
        state.apply(Command::player(zed(), Action::AcceptDraw), T0),
        Err(CommandError::NotAPlayer)
    );
}

#[test]
fn draws_cannot_be_offered_against_the_computer_or_on_one_device() {
    let mut computer = computer_game(Color::Black);
    assert_eq!(offer(&mut computer, ann(), T0), Err(CommandError::DrawNotAllowed));
    let mut same_device = same_device_game();
    assert_eq!(offer(&mut same_device, ann(), T0), Err(CommandError::DrawNotAllowed));
}
