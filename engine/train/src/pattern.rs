//! The engine's pattern layout and weights format, compiled from the engine's own source so
//! that the trainer fits exactly the features the engine evaluates.

#[allow(dead_code)]
#[path = "../../src/ai/pattern/layout.rs"]
pub mod layout;
#[allow(dead_code)]
#[path = "../../src/ai/pattern/weights.rs"]
pub mod weights;
