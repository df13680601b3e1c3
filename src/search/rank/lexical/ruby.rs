//! The lexical rules for Ruby.

use super::tokens::{assigned_value, is_word_byte, strip_qualifier, trim_end, Cursor};
use super::Site;

/// Ruby: `def NAME` (also `def self.NAME`, `def Foo.NAME`, `def NAME=`,
/// after `private`/`protected`/`public`/`module_function`), `class` and
/// `module` (also `Foo::NAME`), constants `NAME = ...` (capitalised names
/// only: lower-case ones are locals), `alias NAME`, `attr_accessor`/
/// `attr_reader`/`attr_writer`/`attr :a, :NAME`, and the Rails macros that
/// define a method named by their first symbol (`scope :NAME`,
/// `has_many :NAME`, `belongs_to`, `has_one`, `define_method(:NAME`,
/// `alias_method :NAME`, `delegate`). Not: `def NAME?`/`def NAME!` (other
/// methods), calls, `@NAME = `, `self.NAME = `.
pub(super) fn ruby(site: &Site) -> bool {
    let mut c = Cursor::new(site.before());
    if c.at_end() {
        return site.name()[0].is_ascii_uppercase() && assigned_value(site.after()).is_some();
    }
    loop {
        let Some(word) = c.word() else {
            return false;
        };
        match word {
            b"private"
            | b"protected"
            | b"public"
            | b"module_function"
            | b"private_class_method"
            | b"public_class_method" => {}
            b"def" => {
                let receiver = c.rest();
                return (receiver.is_empty()
                    || (receiver.ends_with(b".")
                        && receiver.iter().all(|&b| is_word_byte(b) || b == b'.')))
                    && !matches!(site.after().first(), Some(b'?' | b'!'));
            }
            b"class" | b"module" => return trim_end(strip_qualifier(c.rest(), b"::").0).is_empty(),
            b"alias" => {
                c.eat(b":");
                return c.rest_raw().is_empty();
            }
            b"attr_accessor" | b"attr_reader" | b"attr_writer" | b"attr" => loop {
                c.eat(b"(");
                if !c.eat(b":") {
                    return false;
                }
                if c.rest_raw().is_empty() {
                    return true;
                }
                if c.word_touching().is_none() || !c.eat(b",") {
                    return false;
                }
            },
            b"define_method"
            | b"alias_method"
            | b"scope"
            | b"has_many"
            | b"has_one"
            | b"belongs_to"
            | b"has_and_belongs_to_many"
            | b"delegate" => {
                c.eat(b"(");
                return c.eat(b":") && c.rest_raw().is_empty();
            }
            _ => return false,
        }
    }
}
