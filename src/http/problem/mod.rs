//! Errors as problem details (RFC 9457): every refusal, of the HTTP edge or
//! of the service, mapped to a status, a stable `code` and a problem
//! document ([`error`]), written in the language the client asks for
//! ([`i18n`]).
//!
//! Imports: the service's errors, the rules' refusals (to translate them)
//! and the OpenAPI schema of the problem codes; no domain of `http`.

pub mod error;
pub mod i18n;

pub use error::{ApiError, Problem, invalid, problem_for_any_error};
pub use i18n::Lang;
