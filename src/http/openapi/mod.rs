//! The OpenAPI document of the API: its assembly ([`openapi`]), the schemas
//! of the engine's types ([`schema`]), and what the document says for
//! every operation at once rather than on each handler: the shared error
//! answers ([`common_errors`]), the headers the middleware sets
//! ([`spec_headers`]) and warnings beside options ([`spec_notes`]).
//!
//! Imports: the schemas import only the rules, bots and service they
//! describe, so that every domain may use them; the assembly imports
//! [`crate::http::routes`], whose operations it collects.

mod assembly;
pub mod common_errors;
pub mod schema;
pub mod spec_headers;
pub mod spec_notes;

pub use assembly::{openapi, openapi_json};
