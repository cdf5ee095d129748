//! The engine suite: the rules of `botifarra::rules` checked through the
//! engine's own API, without a server or a store.
//!
//! `helpers` holds card literals, matches set up at a chosen phase, an
//! independent oracle of the playing rules and random legal play; `data`
//! holds published deals. Each other module is one topic; add a file
//! beside this one and a `mod` line below to add a topic.

mod helpers;

mod properties;
mod properties_views;
mod rating;
mod scenarios_abarrotada;
mod scenarios_abarrotada_play;
mod scenarios_bidding;
mod scenarios_deal;
mod scenarios_forced;
mod scenarios_play;
mod scenarios_scoring;
mod vectors;
