//! Unions every generator reads: inside `oneOf`, `anyOf` and `allOf`
//! each reference is a bare `{"$ref": …}`.
//!
//! OpenAPI 3.1 lets a reference carry a `description` beside it, and the
//! derive puts a field's doc comment there. Inside a union some generators
//! then take the item for an inline schema: openapi-generator refuses it
//! under a discriminator ("must use $ref") and, beside `{"type": "null"}`,
//! fails to find the referenced schema at all (a nullable field loses its
//! type). So the description moves up to the union (which says what the
//! field is, as the item did) and the item keeps only its `$ref`.

use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, Schema};
use utoipa::openapi::{Content, OpenApi, RefOr};

/// Makes every union item of `api` that is a reference a bare one.
pub fn bare_refs(api: &mut OpenApi) {
    if let Some(components) = api.components.as_mut() {
        components.schemas.values_mut().for_each(walk);
    }
    for item in api.paths.paths.values_mut() {
        super::operations_mut(item).for_each(operation);
    }
}

fn operation(op: &mut Operation) {
    for p in op.parameters.iter_mut().flatten() {
        if let RefOr::T(p) = p
            && let Some(s) = p.schema.as_mut()
        {
            walk(s);
        }
    }
    if let Some(RefOr::T(body)) = op.request_body.as_mut() {
        body.content.values_mut().for_each(content);
    }
    for r in op.responses.responses.values_mut() {
        if let RefOr::T(r) = r {
            r.content.values_mut().for_each(content);
        }
    }
}

fn content(c: &mut RefOr<Content>) {
    if let RefOr::T(c) = c
        && let Some(s) = c.schema.as_mut()
    {
        walk(s);
    }
}

/// Bares the union items in `s` and in every schema it holds.
fn walk(s: &mut RefOr<Schema>) {
    let RefOr::T(schema) = s else {
        return;
    };
    match schema {
        Schema::OneOf(u) => union(&mut u.items, &mut u.description),
        Schema::AnyOf(u) => union(&mut u.items, &mut u.description),
        Schema::AllOf(u) => union(&mut u.items, &mut u.description),
        Schema::Object(o) => {
            o.properties.values_mut().for_each(walk);
            if let Some(extra) = o.additional_properties.as_deref_mut()
                && let AdditionalProperties::RefOr(extra) = extra
            {
                walk(extra);
            }
        }
        Schema::Array(a) => {
            if let ArrayItems::RefOrSchema(items) = &mut a.items {
                walk(items);
            }
        }
        _ => {}
    }
}

/// Moves the first item's description up to the union when it has none,
/// drops the items' others, then walks the items.
fn union(items: &mut [RefOr<Schema>], description: &mut Option<String>) {
    for item in items.iter_mut() {
        if let RefOr::Ref(r) = item {
            let said = std::mem::take(&mut r.description);
            if description.is_none() && !said.is_empty() {
                *description = Some(said);
            }
            r.summary.clear();
        }
    }
    items.iter_mut().for_each(walk);
}
