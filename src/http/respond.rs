//! Answers every domain builds the same way: a `201 Created` with its
//! `Location`, and JSON written into a buffer sized for a match's view.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, HttpResponseBuilder};

/// A `201 Created` whose `Location` is the new resource's path.
pub fn created(location: String) -> HttpResponseBuilder {
    let mut response = HttpResponse::Created();
    response.insert_header((header::LOCATION, location));
    response
}

/// Room reserved for a JSON answer: a view of a long match is a few
/// kilobytes, written at once instead of through a growing buffer.
const JSON_CAPACITY: usize = 8 * 1024;

/// `b` with `body` as JSON: the same answer as
/// [`HttpResponseBuilder::json`], serialized into a buffer of
/// [`JSON_CAPACITY`] instead of one grown (and copied) as it fills.
pub fn json_body(mut b: HttpResponseBuilder, body: &impl serde::Serialize) -> HttpResponse {
    let mut buf = Vec::with_capacity(JSON_CAPACITY);
    match serde_json::to_writer(&mut buf, body) {
        Ok(()) => b
            .insert_header((
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ))
            .body(buf),
        Err(_) => b.json(body),
    }
}
