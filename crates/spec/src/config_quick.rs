//! A quick "valid" for a config read from text, decided on the text ([`crate::raw_json`])
//! without building the config's value.
//!
//! Checking a config with `jsonschema` needs its `serde_json::Value`: a heap string per key and
//! per number and a map per object. On a 100,000-node document built on the built-in types
//! that was most of a validation (issue 18: about 85 of 170 ms, and 100 MB of memory kept
//! once built). Almost every config is valid, so a [`QuickSchema`] answers the common case:
//! [`QuickSchema::accepts`] says `true` only when the config is certainly valid against the
//! schema, and `false` when it is not or when it cannot tell. On `false` the caller checks the
//! config the full way, which also words the diagnostics. A wrong `true` would hide a problem,
//! so everything outside the plain keywords below is either handed to `jsonschema` for that
//! one field (a property's own schema, compiled alone) or makes [`QuickSchema::of`] decline
//! the whole schema; the property test at the end holds every `true` against `jsonschema`.
//!
//! Decided on the text: at the top, `type` (naming `object`), `properties`, `required`,
//! `additionalProperties` as a boolean, `minProperties`, `maxProperties`; for a property,
//! `type`, `enum` and `const` of strings, `minLength`, `maxLength`, `minimum`, `maximum` (for
//! numbers of at most 15 significant digits, compared exactly as such), `items` (of the same
//! kind), `minItems`, `maxItems`; annotations (`title`, `description`, `default`, `x-...`) are
//! ignored, as validation ignores them.

use std::cell::RefCell;
use std::collections::HashMap;

use jsonschema::Validator;
use serde_json::{Map, Value};

use crate::raw_json::{self, Kind};

/// A config schema prepared for [`QuickSchema::accepts`].
pub(crate) struct QuickSchema {
    /// The declared properties, and the required ones not declared (checked `Any`).
    props: Vec<(Box<str>, Check)>,
    /// Where each name of `props` is, when there are many (a list is scanned when few).
    index: Option<HashMap<Box<str>, usize, crate::checks::IdHasher>>,
    /// Indices into `props` of the required properties.
    required: Vec<usize>,
    /// `additionalProperties: false`: a property not declared is not allowed.
    closed: bool,
    min_props: Option<u64>,
    max_props: Option<u64>,
}

/// How one property's value is checked.
enum Check {
    /// Anything (the schema `true`, or a required name that is not declared).
    Any,
    /// Nothing (the schema `false`): present means not decided here.
    Never,
    Plain(Plain),
    /// A schema with more than the plain keywords, compiled alone: the property's value is
    /// built (that value only) and checked by `jsonschema`.
    Alone(Box<Alone>),
}

/// A property's schema compiled alone, and its answers so far by value text: the same few
/// values come back node after node (a channel name checked against a `pattern`, the same
/// headers), and the answer depends on the text alone.
struct Alone {
    validator: Validator,
    answers: RefCell<HashMap<Box<str>, bool, crate::checks::IdHasher>>,
}

/// At most this many answers are kept per property.
const MAX_ANSWERS: usize = 4096;

/// A schema of plain keywords (see the module's documentation).
#[derive(Default)]
struct Plain {
    /// The allowed kinds (`0`: any); see the `T_` bits.
    types: u8,
    /// `enum` / `const` of strings.
    strings: Option<Vec<Box<str>>>,
    min_len: Option<u64>,
    max_len: Option<u64>,
    minimum: Option<f64>,
    maximum: Option<f64>,
    items: Option<Box<Plain>>,
    min_items: Option<u64>,
    max_items: Option<u64>,
}

const T_STRING: u8 = 1;
const T_NUMBER: u8 = 2;
const T_INTEGER: u8 = 4;
const T_BOOLEAN: u8 = 8;
const T_NULL: u8 = 16;
const T_OBJECT: u8 = 32;
const T_ARRAY: u8 = 64;

/// At most this many properties (declared, and required without being declared).
const MAX_PROPS: usize = 128;

/// From this many properties on, names are found through a map.
const INDEXED_FROM: usize = 12;

/// Keywords that never make validation fail (annotations), at any level.
fn is_annotation(key: &str) -> bool {
    matches!(
        key,
        "title"
            | "description"
            | "$comment"
            | "default"
            | "examples"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
    ) || key.starts_with("x-")
}

impl QuickSchema {
    /// `schema` prepared, or `None` when it uses anything this check does not decide (then
    /// every config of the type is checked the full way, as before).
    pub(crate) fn of(schema: &Value) -> Option<QuickSchema> {
        let keywords = schema.as_object()?;
        // A reference anywhere could point into or out of a property's schema, which is then
        // not self-contained: not decided here.
        if has_reference(schema) {
            return None;
        }
        let dialect = keywords.get("$schema");
        // Only the dialects whose plain keywords mean what they mean here (draft 4 onwards).
        if let Some(d) = dialect {
            let uri = d.as_str()?;
            if !["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"].iter().any(|v| uri.contains(v)) {
                return None;
            }
        }
        let mut quick = QuickSchema {
            props: Vec::new(),
            index: None,
            required: Vec::new(),
            closed: false,
            min_props: None,
            max_props: None,
        };
        for (key, value) in keywords {
            match key.as_str() {
                "$schema" | "$defs" | "definitions" => {}
                "type" => {
                    if types(value)? & T_OBJECT == 0 {
                        return None;
                    }
                }
                "properties" => {
                    for (name, sub) in value.as_object()? {
                        let check = Check::of(sub, dialect)?;
                        quick.props.push((name.as_str().into(), check));
                    }
                }
                "required" => {}
                "additionalProperties" => quick.closed = !value.as_bool()?,
                "minProperties" => quick.min_props = Some(value.as_u64()?),
                "maxProperties" => quick.max_props = Some(value.as_u64()?),
                k if is_annotation(k) => {}
                _ => return None,
            }
        }
        if let Some(required) = keywords.get("required") {
            for name in required.as_array()? {
                let name = name.as_str()?;
                let at = match quick.props.iter().position(|(n, _)| &**n == name) {
                    Some(at) => at,
                    // Required and never allowed: no config is valid; not decided here.
                    None if quick.closed => return None,
                    None => {
                        quick.props.push((name.into(), Check::Any));
                        quick.props.len() - 1
                    }
                };
                quick.required.push(at);
            }
        }
        if quick.props.len() > MAX_PROPS {
            return None;
        }
        if quick.props.len() >= INDEXED_FROM {
            let index = quick.props.iter().enumerate().map(|(i, (n, _))| (n.clone(), i)).collect();
            quick.index = Some(index);
        }
        Some(quick)
    }

    /// True only when `raw`, a config's checked text (an object), is valid against the schema;
    /// false when it is not or when that is not decided here.
    pub(crate) fn accepts(&self, raw: &str) -> bool {
        if raw_json::kind(raw) != Some(Kind::Object) {
            return false;
        }
        // Which properties were met: a bit each (`of` declines more than `MAX_PROPS`).
        let mut seen = 0u128;
        let mut count = 0u64;
        let mut members = raw_json::members(raw);
        for (key, value) in members.by_ref() {
            count += 1;
            let Some(name) = raw_json::string(key) else { return false };
            match self.find(&name) {
                Some(i) => {
                    seen |= 1 << i;
                    if !self.props[i].1.accepts(value) {
                        return false;
                    }
                }
                None if self.closed => return false,
                None => {}
            }
        }
        members.ended_well()
            && self.required.iter().all(|&i| seen & (1 << i) != 0)
            && self.min_props.is_none_or(|m| count >= m)
            && self.max_props.is_none_or(|m| count <= m)
    }

    fn find(&self, name: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(name).copied(),
            None => self.props.iter().position(|(n, _)| &**n == name),
        }
    }
}

impl Check {
    /// How a property's schema is checked; `None` when it cannot be (the whole schema is then
    /// not decided here). `dialect`: the root's `$schema`, given to a schema compiled alone.
    fn of(schema: &Value, dialect: Option<&Value>) -> Option<Check> {
        match schema {
            Value::Bool(true) => Some(Check::Any),
            Value::Bool(false) => Some(Check::Never),
            Value::Object(keywords) => match Plain::of(keywords) {
                Some(plain) => Some(Check::Plain(plain)),
                None => {
                    let mut alone = keywords.clone();
                    if let Some(d) = dialect {
                        alone.insert("$schema".into(), d.clone());
                    }
                    let validator = jsonschema::options().offline().build(&Value::Object(alone)).ok()?;
                    Some(Check::Alone(Box::new(Alone { validator, answers: RefCell::default() })))
                }
            },
            _ => None,
        }
    }

    fn accepts(&self, raw: &str) -> bool {
        match self {
            Check::Any => true,
            Check::Never => false,
            Check::Plain(plain) => plain.accepts(raw),
            Check::Alone(alone) => alone.accepts(raw),
        }
    }
}

impl Alone {
    fn accepts(&self, raw: &str) -> bool {
        if let Some(&answer) = self.answers.borrow().get(raw) {
            return answer;
        }
        let answer = serde_json::from_str::<Value>(raw).is_ok_and(|value| self.validator.is_valid(&value));
        let mut answers = self.answers.borrow_mut();
        if answers.len() < MAX_ANSWERS {
            answers.insert(raw.into(), answer);
        }
        answer
    }
}

impl Plain {
    fn of(keywords: &Map<String, Value>) -> Option<Plain> {
        let mut plain = Plain::default();
        for (key, value) in keywords {
            match key.as_str() {
                "type" => plain.types = types(value)?,
                "enum" => {
                    let all = value
                        .as_array()?
                        .iter()
                        .map(|v| v.as_str().map(Box::from))
                        .collect::<Option<Vec<_>>>()?;
                    if plain.strings.replace(all).is_some() {
                        return None;
                    }
                }
                "const" => {
                    if plain.strings.replace(vec![value.as_str()?.into()]).is_some() {
                        return None;
                    }
                }
                "minLength" => plain.min_len = Some(value.as_u64()?),
                "maxLength" => plain.max_len = Some(value.as_u64()?),
                "minimum" => plain.minimum = Some(short_number(&value.as_number()?.to_string())?),
                "maximum" => plain.maximum = Some(short_number(&value.as_number()?.to_string())?),
                "items" => match value {
                    Value::Bool(true) => {}
                    Value::Object(items) => plain.items = Some(Box::new(Plain::of(items)?)),
                    _ => return None,
                },
                "minItems" => plain.min_items = Some(value.as_u64()?),
                "maxItems" => plain.max_items = Some(value.as_u64()?),
                k if is_annotation(k) => {}
                _ => return None,
            }
        }
        Some(plain)
    }

    fn accepts(&self, raw: &str) -> bool {
        let Some(kind) = raw_json::kind(raw) else { return false };
        let typed = match kind {
            Kind::String => T_STRING,
            Kind::Number if plain_integer(raw) => T_NUMBER | T_INTEGER,
            // A number with a fraction or an exponent may still be an integer (`1.0`): only
            // `number` is decided here.
            Kind::Number => T_NUMBER,
            Kind::Bool => T_BOOLEAN,
            Kind::Null => T_NULL,
            Kind::Object => T_OBJECT,
            Kind::Array => T_ARRAY,
        };
        if self.types != 0 && self.types & typed == 0 {
            return false;
        }
        if self.strings.is_some() && kind != Kind::String {
            return false;
        }
        match kind {
            Kind::String => self.accepts_string(raw),
            Kind::Number => self.accepts_number(raw),
            Kind::Array => self.accepts_array(raw),
            _ => true,
        }
    }

    fn accepts_string(&self, raw: &str) -> bool {
        if self.strings.is_none() && self.min_len.is_none() && self.max_len.is_none() {
            return true;
        }
        let Some(text) = raw_json::string(raw) else { return false };
        if let Some(allowed) = &self.strings {
            if !allowed.iter().any(|a| **a == *text) {
                return false;
            }
        }
        // JSON Schema counts characters (code points), not bytes.
        let len = text.chars().count() as u64;
        self.min_len.is_none_or(|m| len >= m) && self.max_len.is_none_or(|m| len <= m)
    }

    fn accepts_number(&self, raw: &str) -> bool {
        if self.minimum.is_none() && self.maximum.is_none() {
            return true;
        }
        let Some(x) = short_number(raw.trim_matches([' ', '\n', '\r', '\t'])) else { return false };
        self.minimum.is_none_or(|m| x >= m) && self.maximum.is_none_or(|m| x <= m)
    }

    fn accepts_array(&self, raw: &str) -> bool {
        let mut count = 0u64;
        let mut items = raw_json::items(raw);
        for item in items.by_ref() {
            count += 1;
            if let Some(plain) = &self.items {
                if !plain.accepts(item) {
                    return false;
                }
            }
        }
        items.ended_well()
            && self.min_items.is_none_or(|m| count >= m)
            && self.max_items.is_none_or(|m| count <= m)
    }
}

/// The kinds `type` allows, as `T_` bits (`None` for a `type` that is not a kind or a list of
/// kinds).
fn types(value: &Value) -> Option<u8> {
    let one = |name: &str| match name {
        "string" => Some(T_STRING),
        "number" => Some(T_NUMBER),
        "integer" => Some(T_INTEGER),
        "boolean" => Some(T_BOOLEAN),
        "null" => Some(T_NULL),
        "object" => Some(T_OBJECT),
        "array" => Some(T_ARRAY),
        _ => None,
    };
    match value {
        Value::String(name) => one(name),
        Value::Array(names) if !names.is_empty() => {
            names.iter().try_fold(0, |bits, name| Some(bits | one(name.as_str()?)?))
        }
        _ => None,
    }
}

/// A number written `-?digits` with at most 15 digits: an integer whatever the dialect says of
/// `1.0`, and exactly an `f64`.
fn plain_integer(raw: &str) -> bool {
    let t = raw.trim_matches([' ', '\n', '\r', '\t']);
    let digits = t.strip_prefix('-').unwrap_or(t);
    !digits.is_empty() && digits.len() <= 15 && digits.bytes().all(|c| c.is_ascii_digit())
}

/// The value of a number written `-?digits[.digits]` with at most 15 significant digits (and
/// 30 digits in all), as an `f64`; `None` for any other text. Two such numbers compare as `f64`s exactly as they do as
/// decimals: each is the `f64` nearest to it, distinct ones are never the same `f64` (15
/// digits always come back from an `f64`), and rounding keeps their order.
fn short_number(text: &str) -> Option<f64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
    if whole.is_empty()
        || !all_digits(whole)
        || !all_digits(fraction)
        || (digits.contains('.') && fraction.is_empty())
    {
        return None;
    }
    // Significant digits: from the first non-zero digit to the last one, across the point.
    let all = || whole.bytes().chain(fraction.bytes());
    let leading = all().take_while(|&c| c == b'0').count();
    let trailing = all().rev().take_while(|&c| c == b'0').count();
    let significant = (whole.len() + fraction.len()).saturating_sub(leading + trailing);
    // At most 30 digits in all keeps the number far inside the range where that holds.
    if significant > 15 || whole.len() + fraction.len() > 30 {
        return None;
    }
    text.parse().ok()
}

/// Whether `schema` has a reference keyword or an id anywhere (values of data keywords
/// included: being wrong here only declines a schema).
fn has_reference(schema: &Value) -> bool {
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    if matches!(
                        key.as_str(),
                        "$ref"
                            | "$dynamicRef"
                            | "$recursiveRef"
                            | "$id"
                            | "$anchor"
                            | "$dynamicAnchor"
                            | "$recursiveAnchor"
                    ) || (key == "id" && v.is_string())
                    {
                        return true;
                    }
                    stack.push(v);
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests;
