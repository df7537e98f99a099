//! Draw offers: at most one pending, and no more than one offer per player every few plies.

use outflank_engine::Color;

use super::CommandError;

/// After offering a draw, a player may offer again once this many plies (passes included)
/// have been played since the previous offer.
pub const DRAW_OFFER_INTERVAL_PLIES: usize = 4;

/// The draw offer state of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct DrawOffers {
    pending: Option<Color>,
    /// The ply count when each side (by colour index) last offered.
    last_offer: [Option<usize>; 2],
}

/// What an accepted offer request does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Offer {
    /// A new offer now stands.
    Made,
    /// The opponent had offered already: the two agree.
    Agreed,
}

impl DrawOffers {
    /// The side whose offer awaits an answer.
    pub(super) fn pending(&self) -> Option<Color> {
        self.pending
    }

    /// `by` offers a draw when `plies` plies have been played.
    pub(super) fn offer(&mut self, by: Color, plies: usize) -> Result<Offer, CommandError> {
        match self.pending {
            Some(side) if side == by => return Err(CommandError::DrawAlreadyOffered),
            Some(_) => return Ok(Offer::Agreed),
            None => {}
        }
        if let Some(last) = self.last_offer[by as usize] {
            let since = plies.saturating_sub(last);
            if since < DRAW_OFFER_INTERVAL_PLIES {
                return Err(CommandError::DrawOfferTooSoon(DRAW_OFFER_INTERVAL_PLIES - since));
            }
        }
        self.pending = Some(by);
        self.last_offer[by as usize] = Some(plies);
        Ok(Offer::Made)
    }

    /// Checks that `by` has an offer from the opponent to answer.
    pub(super) fn check_answer(&self, by: Color) -> Result<(), CommandError> {
        match self.pending {
            Some(side) if side != by => Ok(()),
            _ => Err(CommandError::NoDrawOffer),
        }
    }

    /// Withdraws the pending offer, if any.
    pub(super) fn clear(&mut self) {
        self.pending = None;
    }
}
