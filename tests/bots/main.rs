//! The bots suite: the house bots only play legal actions and know only
//! what their seat may know, and the arena that pits bots against each
//! other (an external bot over HTTP included).

mod arena;
mod expert;
mod house_bots;
