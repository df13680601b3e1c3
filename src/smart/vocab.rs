//! A small code vocabulary: words that name the same idea in code, and the
//! abbreviations programmers write for them. A question's word is widened
//! by its group, each related form weighing [`RELATED_WEIGHT`] of the word
//! as typed.
//!
//! The groups are written by hand and kept small: a word in a group must be
//! one a programmer would write for the others, not merely a neighbour in
//! meaning.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::smart::words::stem;

/// How much a related form counts against the word as typed.
pub const RELATED_WEIGHT: f32 = 0.4;

/// Each line a group of words used for one idea in code.
const GROUPS: &[&[&str]] = &[
    &["fetch", "load", "download", "retrieve", "pull"],
    &[
        "remove", "delete", "drop", "unlink", "erase", "purge", "del",
    ],
    &[
        "config",
        "configuration",
        "options",
        "preferences",
        "cfg",
        "conf",
    ],
    &["directory", "folder", "dir"],
    &["message", "msg"],
    &["number", "num", "count", "cnt"],
    &["string", "str", "text"],
    &["buffer", "buf"],
    &["length", "len", "size"],
    &["pointer", "ptr"],
    &["initialize", "init", "setup"],
    &["allocate", "alloc", "malloc"],
    &["temporary", "temp", "tmp"],
    &["argument", "arg", "args", "parameter", "param", "params"],
    &["error", "err", "failure", "fail"],
    &["database", "db"],
    &["connection", "conn", "socket"],
    &["request", "req"],
    &["response", "resp", "reply"],
    &["previous", "prev"],
    &["index", "idx"],
    &["character", "char", "chr"],
    &["environment", "env"],
    &["executable", "exe", "binary", "program"],
    &["random", "rand"],
    &["maximum", "max", "limit"],
    &["minimum", "min"],
    &["position", "pos", "offset"],
    &["source", "src"],
    &["destination", "dst", "dest", "target"],
    &["attribute", "attr"],
    &["reference", "ref"],
    &["expression", "expr"],
    &["statement", "stmt"],
    &["information", "info"],
    &["synchronize", "sync"],
    &["asynchronous", "async"],
    &["authentication", "auth", "authenticate", "login"],
    &["password", "passwd", "pwd", "credential"],
    &["command", "cmd"],
    &["document", "doc"],
    &["value", "val"],
    &["variable", "var"],
    &["create", "new", "make", "build", "construct"],
    &["start", "begin", "launch", "spawn"],
    &["stop", "end", "halt", "terminate", "kill"],
    &["cleanup", "teardown", "dispose", "close", "release"],
    &["check", "verify", "validate", "ensure"],
    &["convert", "transform", "parse"],
    &["compare", "cmp", "diff"],
    &["search", "find", "lookup", "locate", "query"],
    &["list", "array", "vec", "slice"],
    &["map", "dict", "dictionary", "hashmap"],
    &["write", "print", "emit", "output"],
    &["read", "input", "scan"],
    &["path", "filename", "file"],
    &["time", "timestamp", "clock", "date"],
    &["timeout", "deadline", "expire", "expiry", "ttl"],
    &["wait", "block", "sleep"],
    &["lock", "mutex"],
    &["user", "account"],
    &["token", "jwt"],
    &["cache", "memo", "memoize"],
    &["log", "logger", "journal"],
    &["compress", "zip", "deflate", "gzip"],
    &["encode", "serialize", "marshal"],
    &["decode", "deserialize", "unmarshal"],
    &["whitespace", "space", "blank"],
    &["comment", "docstring"],
    &["split", "chunk"],
    &["join", "concat"],
    &["sort", "order", "sorted"],
    &["help", "usage"],
    &["flag", "option", "switch"],
    &["thread", "parallel", "concurrent", "worker"],
    &["child", "fork", "subprocess"],
    &["memory", "mem", "ram"],
    &["free", "release"],
    &["node", "element", "item", "entry"],
    &["link", "symlink"],
    &["email", "mail"],
    &["regex", "regexp"],
];

/// Phrases of several words that code writes as one term, mostly an
/// initialism (`time to live` as `ttl`, `write ahead log` as `wal`): the
/// phrase's words, lower-case and in order, and the terms. Kept to phrases
/// whose terms mean nothing else, so that unlike initials guessed from any
/// run of words, a term found in code is the phrase.
pub const PHRASES: &[(&[&str], &[&str])] = &[
    (&["time", "to", "live"], &["ttl"]),
    (&["write", "ahead", "log"], &["wal"]),
    (&["append", "only", "file"], &["aof"]),
    (&["least", "recently", "used"], &["lru"]),
    (&["least", "frequently", "used"], &["lfu"]),
    (&["first", "in", "first", "out"], &["fifo"]),
    (&["last", "in", "first", "out"], &["lifo"]),
    (&["hash", "table"], &["hashtable", "dict"]),
    (&["linked", "list"], &["linkedlist"]),
    (&["regular", "expression"], &["regex", "regexp"]),
    (&["command", "line"], &["cli", "cmdline"]),
    (&["standard", "output"], &["stdout"]),
    (&["standard", "input"], &["stdin"]),
    (&["standard", "error"], &["stderr"]),
    (&["file", "descriptor"], &["fd"]),
    (&["process", "id"], &["pid"]),
    (&["garbage", "collection"], &["gc"]),
    (&["garbage", "collector"], &["gc"]),
    (&["time", "zone"], &["tz", "timezone"]),
    (&["end", "of", "file"], &["eof"]),
    (&["abstract", "syntax", "tree"], &["ast"]),
    (&["just", "in", "time"], &["jit"]),
    (&["compare", "and", "swap"], &["cas"]),
    (&["remote", "procedure", "call"], &["rpc"]),
    (&["access", "control", "list"], &["acl"]),
    (&["copy", "on", "write"], &["cow"]),
    (&["byte", "order", "mark"], &["bom"]),
    (&["universally", "unique", "identifier"], &["uuid"]),
    (&["uniform", "resource", "locator"], &["url"]),
    (&["round", "robin"], &["roundrobin"]),
    (&["key", "value"], &["kv"]),
];

/// A related form: its stem, and the text rg looks for (the longest
/// common prefix of the word and its stem, so `directory`, whose stem is
/// `directori`, is looked for as `director`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// The word as the vocabulary has it.
    pub word: &'static str,
    pub stem: String,
    pub pattern: String,
}

/// The text rg looks for to find `word` and the other words of its
/// stem: their longest common prefix.
pub fn pattern(word: &str, stem: &str) -> String {
    word.chars()
        .zip(stem.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a)
        .collect()
}

/// For each stem, the forms related to it (never itself), in the order
/// the groups give them.
static RELATED: LazyLock<HashMap<String, Vec<Related>>> = LazyLock::new(|| {
    let mut related: HashMap<String, Vec<Related>> = HashMap::new();
    for group in GROUPS {
        let forms: Vec<Related> = group
            .iter()
            .map(|w| {
                let stem = stem(w).into_owned();
                Related {
                    word: w,
                    pattern: pattern(w, &stem),
                    stem,
                }
            })
            .collect();
        for form in &forms {
            let entry = related.entry(form.stem.clone()).or_default();
            for other in &forms {
                if other.stem != form.stem && !entry.iter().any(|r| r.stem == other.stem) {
                    entry.push(other.clone());
                }
            }
        }
    }
    related
});

/// The forms related to `stem` by the vocabulary (empty when it is in no
/// group).
pub fn related(stem: &str) -> &'static [Related] {
    RELATED.get(stem).map_or(&[], |v| v.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_are_lower_case_words_and_short_terms() {
        for (phrase, terms) in PHRASES {
            assert!(phrase.len() >= 2, "{phrase:?}");
            for word in *phrase {
                assert!(word.chars().all(|c| c.is_ascii_lowercase()), "{phrase:?}");
            }
            assert!(!terms.is_empty(), "{phrase:?}");
            for term in *terms {
                assert!(term.chars().all(|c| c.is_ascii_lowercase()), "{term}");
                assert!(!phrase.contains(term), "{term} is a word of its own phrase");
            }
        }
    }

    #[test]
    fn widens_by_group_both_ways_by_stem() {
        let fetch = related(&stem("fetching"));
        assert!(fetch.iter().any(|r| r.stem == "download"), "{fetch:?}");
        assert!(fetch.iter().any(|r| r.stem == "retriev"), "{fetch:?}");
        let download = related("download");
        assert!(download.iter().any(|r| r.stem == "fetch"), "{download:?}");
        let remove = related("remov");
        assert!(remove.iter().any(|r| r.stem == "unlink"), "{remove:?}");
        assert!(
            !remove.iter().any(|r| r.stem == "remov"),
            "never related to itself"
        );
        let dir = related("dir");
        let directory = dir.iter().find(|r| r.stem == "directori").unwrap();
        assert_eq!(
            directory.pattern, "director",
            "rg looks for a prefix of the word"
        );
        assert!(related("zyzzyva").is_empty());
        // `tokenize` stems to `token`: a token is no split or chunk.
        assert!(related("token").iter().all(|r| r.stem != "split"));
    }

    const _: () = assert!(RELATED_WEIGHT > 0.0 && RELATED_WEIGHT < 1.0);
}
