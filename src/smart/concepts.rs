//! From a question to its concepts: the words that say something about the
//! code, each stemmed and widened by the code vocabulary ([`vocab`]).

use crate::smart::vocab::{self, RELATED_WEIGHT};
use crate::smart::words::{is_stop_word, split_words, stem};

/// A form a concept is recognised by in code.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    /// The word (as typed, or the vocabulary's).
    pub word: String,
    /// The stem a code word must have to be this form.
    pub stem: String,
    /// What rg looks for, case-insensitively, inside identifiers: a prefix
    /// of the words of this stem.
    pub pattern: String,
    /// 1 for the word as typed; [`RELATED_WEIGHT`] for a related form.
    pub weight: f32,
}

/// One idea of the question.
#[derive(Debug, Clone, PartialEq)]
pub struct Concept {
    /// The word as the question has it (lower-case).
    pub word: String,
    /// Its forms, the word's own first.
    pub forms: Vec<Form>,
}

/// The shortest pattern rg is given: shorter ones match inside most
/// identifiers. Shorter forms still count when a code word has their stem.
pub const MIN_PATTERN: usize = 3;

/// Concepts looked for, at most: a question is a few words, and a pasted
/// log or page of text would otherwise send rg hundreds of patterns and
/// fill the page's header. The words past them weigh least anyway
/// ([`crate::smart::score::position_weight`]).
pub const MAX_CONCEPTS: usize = 16;

/// The concepts of `question` ([`concepts_and_unused`]).
#[cfg(test)]
pub fn concepts(question: &str) -> Vec<Concept> {
    concepts_and_unused(question).0
}

/// The concepts of `question`, in the order its words come: stop and
/// question words, single letters and numbers dropped, one concept per
/// stem, at most [`MAX_CONCEPTS`]; then the words past them, which are
/// not looked for. A related form already a concept of its own is not
/// repeated. A name made only of stop words and short words (one token,
/// such as `other`, `IsA` or `get_it`) keeps them: they are what it asks
/// for. A sentence of them (`where is it?`) has no concept.
pub fn concepts_and_unused(question: &str) -> (Vec<Concept>, Vec<String>) {
    let strict = concepts_with(question, true);
    if !strict.0.is_empty() || question.split_whitespace().nth(1).is_some() {
        return strict;
    }
    concepts_with(question, false)
}

/// [`concepts_and_unused`], dropping stop words and short words when
/// `strict`, else only numbers and single letters.
fn concepts_with(question: &str, strict: bool) -> (Vec<Concept>, Vec<String>) {
    let mut out: Vec<Concept> = Vec::new();
    split_words(question, |word| {
        if word.chars().all(|c| c.is_numeric()) || (strict && is_stop_word(word)) {
            return;
        }
        let stem = stem(word).into_owned();
        // Two letters are a concept only when the vocabulary knows them
        // (`db`, `fd`): most are the halves of a split word (`\xFF`).
        let short = word.chars().count() < 3 && vocab::related(&stem).is_empty();
        if (strict && short) || word.chars().count() < 2 {
            return;
        }
        if out.iter().any(|c| c.forms[0].stem == stem) {
            return;
        }
        let mut forms = vec![Form {
            word: word.to_string(),
            pattern: vocab::pattern(word, &stem),
            stem,
            weight: 1.0,
        }];
        for variant in variants(word) {
            add_word_form(&mut forms, &variant);
        }
        out.push(Concept {
            word: word.to_string(),
            forms,
        });
    });
    let unused: Vec<String> = out
        .drain(out.len().min(MAX_CONCEPTS)..)
        .map(|c| c.word)
        .collect();
    for concept in &mut out {
        for literal in literals(&concept.forms[0].stem) {
            concept.forms.push(Form {
                word: literal.clone(),
                stem: literal.clone(),
                pattern: literal,
                weight: 1.0,
            });
        }
    }
    add_phrase_terms(question, &mut out, &unused);
    let own: Vec<String> = out.iter().map(|c| c.forms[0].stem.clone()).collect();
    for concept in &mut out {
        for related in vocab::related(&concept.forms[0].stem) {
            if !own.contains(&related.stem) {
                concept.forms.push(Form {
                    word: related.word.to_string(),
                    stem: related.stem.clone(),
                    pattern: related.pattern.clone(),
                    weight: RELATED_WEIGHT,
                });
            }
        }
    }
    (out, unused)
}

/// Adds `word` to `forms` at the weight of a word as typed, unless a form
/// of its stem is there already.
fn add_word_form(forms: &mut Vec<Form>, word: &str) {
    let word_stem = stem(word).into_owned();
    if forms.iter().all(|f| f.stem != word_stem) {
        forms.push(Form {
            word: word.to_string(),
            pattern: vocab::pattern(word, &word_stem),
            stem: word_stem,
            weight: 1.0,
        });
    }
}

/// The terms of the [`vocab::PHRASES`] the question spells out, each a
/// form of every concept among the phrase's words, weighing as the words
/// as typed: `ttl` is `time to live`. A phrase with a word past the cap
/// (`unused`) is not looked for, like that word.
fn add_phrase_terms(question: &str, concepts: &mut [Concept], unused: &[String]) {
    let mut words: Vec<String> = Vec::new();
    split_words(question, |word| words.push(word.to_lowercase()));
    for (phrase, terms) in vocab::PHRASES {
        if !words.windows(phrase.len()).any(|w| w == *phrase)
            || phrase.iter().any(|w| unused.iter().any(|u| u == w))
        {
            continue;
        }
        for concept in concepts
            .iter_mut()
            .filter(|c| phrase.contains(&c.word.as_str()))
        {
            for term in *terms {
                add_word_form(&mut concept.forms, term);
            }
        }
    }
}

/// The characters a word names (`dot`, `slash`, `braces`, `newline`), by
/// its stem, each as written in code: a quoted literal (`'.'`, `"/"`,
/// `'\n'`, and a doc comment's `` `.` ``), which questions describe by
/// name and code spells out. A literal is a [`Form`] whose stem and
/// pattern are the quoted text: rg's pass finds it as it finds any form,
/// and [`is_literal`] tells the word matcher to look for it in a line's
/// text, not among its words.
pub fn literals(stem: &str) -> Vec<String> {
    let chars: &[&str] = match stem {
        "dot" | "period" => &["."],
        "slash" => &["/"],
        "backslash" => &["\\\\"],
        "comma" => &[","],
        "colon" => &[":"],
        "semicolon" => &[";"],
        "brace" => &["{", "}"],
        "bracket" => &["[", "]"],
        "parenthesi" | "parenthes" | "paren" => &["(", ")"],
        "newlin" => &["\\n"],
        "hyphen" => &["-"],
        "underscor" => &["_"],
        "asterisk" => &["*"],
        _ => &[],
    };
    chars
        .iter()
        .flat_map(|c| [format!("'{c}'"), format!("\"{c}\""), format!("`{c}`")])
        .collect()
}

/// Whether `form` is one of [`literals`]: quoted text, not a word.
pub fn is_literal(form: &Form) -> bool {
    form.pattern.starts_with(['\'', '"', '`'])
}

/// The adjective an adverb is made from, which code names use where a
/// question has the adverb (`lazily` for `lazy`, `gradually` for
/// `gradual`): Porter 2 leaves `lazili` and `gradual` apart from `lazi`
/// and `gradual`. `None` for a word that is not a `-ly` adverb: short
/// bases are left alone, since `supply` and `reply` are no adverbs.
pub fn adverb_base(word: &str) -> Option<String> {
    let base = word.strip_suffix("ly")?;
    match base.strip_suffix('i') {
        Some(stem) if stem.len() >= 3 => Some(format!("{stem}y")),
        None if base.len() >= 5 => Some(base.to_string()),
        _ => None,
    }
}

/// The American spelling of a British one, which most code is written in
/// (`neighbouring` for `neighboring`, `normalise` for `normalize`,
/// `analyse` for `analyze`): Porter 2 keeps them apart. `None` when the
/// word has no such ending. A wrong guess (`promise` as `promize`) is a
/// form no code has, so it costs only a pattern.
pub fn american_spelling(word: &str) -> Option<String> {
    const ENDINGS: [(&str, &str, usize); 12] = [
        ("our", "or", 3),
        ("ours", "ors", 3),
        ("oured", "ored", 3),
        ("ouring", "oring", 3),
        ("ise", "ize", 4),
        ("ised", "ized", 4),
        ("ises", "izes", 4),
        ("ising", "izing", 4),
        ("isation", "ization", 4),
        ("iser", "izer", 4),
        ("yse", "yze", 3),
        ("ysing", "yzing", 3),
    ];
    ENDINGS.iter().find_map(|(british, american, min)| {
        let base = word.strip_suffix(british)?;
        (base.len() >= *min).then(|| format!("{base}{american}"))
    })
}

/// Other spellings of a question's word that code may use: the adjective
/// of an adverb ([`adverb_base`]) and the American spelling
/// ([`american_spelling`]), of the word and of that adjective.
fn variants(word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let base = adverb_base(word);
    for w in std::iter::once(word).chain(base.as_deref()) {
        if let Some(american) = american_spelling(w) {
            out.push(american);
        }
    }
    out.extend(base);
    out
}

/// How strongly a code word (lower-case, one word of a split identifier,
/// `stem` its stem) is `form`: 1 when it has the form's stem, less when it
/// only starts with or contains the form's pattern (`keepalive` holds
/// `alive`), 0 when it is not the form.
pub fn form_match(word: &str, word_stem: &str, form: &Form) -> f32 {
    if word_stem == form.stem || word == form.pattern {
        return form.weight;
    }
    let n = form.pattern.len();
    if n >= 4 && word.starts_with(&form.pattern) {
        return 0.7 * form.weight;
    }
    if n >= 5 && word.contains(&form.pattern) && !inverts(word, &form.pattern) {
        return 0.4 * form.weight;
    }
    0.0
}

/// Prefixes that turn a word into its opposite or its undoing:
/// `deserialize` is not `serialize`, nor `unsubscribe` `subscribe`.
const INVERTING_PREFIXES: [&str; 5] = ["de", "un", "dis", "non", "anti"];

/// Whether `word` is `pattern` behind an inverting prefix.
fn inverts(word: &str, pattern: &str) -> bool {
    INVERTING_PREFIXES.iter().any(|p| {
        word.strip_prefix(p)
            .is_some_and(|rest| rest.starts_with(pattern))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_behind_an_inverting_prefix_is_not_the_word() {
        let form = |word: &str| {
            let concepts = concepts(word);
            concepts[0].forms[0].clone()
        };
        let serialize = form("serialize");
        let at = |word: &str, f: &Form| form_match(word, &stem(word), f);
        assert!(at("serializer", &serialize) > 0.0);
        assert!(at("reserialize", &serialize) > 0.0, "not an undoing");
        assert_eq!(at("deserialize", &serialize), 0.0);
        let subscribe = form("subscribe");
        assert_eq!(at("unsubscribe", &subscribe), 0.0);
        let connect = form("connection");
        assert_eq!(at("disconnection", &connect), 0.0);
        assert!(at("reconnection", &connect) > 0.0);
    }

    #[test]
    fn words_past_the_cap_are_set_apart_in_order() {
        let words: Vec<String> = (0..MAX_CONCEPTS + 4)
            .map(|i| format!("zq{}x", char::from(b'a' + i as u8)))
            .collect();
        let question = format!("{} {}", words.join(" "), words[0]);
        let (kept, unused) = concepts_and_unused(&question);
        let kept: Vec<&str> = kept.iter().map(|c| c.word.as_str()).collect();
        assert_eq!(kept, &words[..MAX_CONCEPTS]);
        assert_eq!(
            unused,
            &words[MAX_CONCEPTS..],
            "a repeated word is not counted twice"
        );
        assert!(concepts_and_unused("evict keys").1.is_empty());
        // A phrase reaching past the cap is not looked for either.
        let fillers = words[..MAX_CONCEPTS - 1].join(" ");
        let (kept, unused) = concepts_and_unused(&format!("{fillers} time to live"));
        assert_eq!(unused, ["live"]);
        assert!(kept.iter().all(|c| c.forms.iter().all(|f| f.word != "ttl")));
        let (kept, _) = concepts_and_unused(&format!("time to live {fillers}"));
        assert!(kept[0].forms.iter().any(|f| f.word == "ttl"));
    }

    #[test]
    fn a_name_of_stop_words_is_what_it_asks_for_and_a_sentence_of_them_is_nothing() {
        let words = |question: &str| -> Vec<String> {
            concepts(question).into_iter().map(|c| c.word).collect()
        };
        assert_eq!(words("other"), ["other"]);
        assert_eq!(words("IsA"), ["is"]);
        assert_eq!(words("get_it"), ["get", "it"]);
        assert!(words("where is it?").is_empty());
        assert!(words("123").is_empty());
        // A name with a word of its own keeps only that word.
        assert_eq!(words("get_request"), ["request"]);
    }

    #[test]
    fn a_phrase_spelled_out_is_also_its_term() {
        let forms = |question: &str, word: &str| -> Vec<String> {
            concepts(question)
                .into_iter()
                .find(|c| c.word == word)
                .map(|c| c.forms.into_iter().map(|f| f.word).collect())
                .unwrap_or_default()
        };
        let q = "expire tokens after their time to live";
        assert!(
            forms(q, "time").contains(&"ttl".to_string()),
            "{:?}",
            forms(q, "time")
        );
        assert!(forms(q, "live").contains(&"ttl".to_string()));
        assert!(!forms(q, "tokens").contains(&"ttl".to_string()));
        // Only the phrase in order, word after word.
        assert!(!forms("live for a long time", "time").contains(&"ttl".to_string()));
        assert!(!forms("time and live", "time").contains(&"ttl".to_string()));
        let log = forms("fix a write ahead log", "ahead");
        assert!(log.contains(&"wal".to_string()), "{log:?}");
    }

    #[test]
    fn characters_named_in_words_are_looked_for_as_literals() {
        let literal_forms = |question: &str| -> Vec<Vec<String>> {
            concepts(question)
                .iter()
                .map(|c| {
                    c.forms
                        .iter()
                        .filter(|f| is_literal(f))
                        .map(|f| f.pattern.clone())
                        .collect()
                })
                .collect()
        };
        assert_eq!(
            literal_forms("name starts with a dot"),
            [
                vec![],
                vec![],
                vec!["'.'".to_string(), "\".\"".into(), "`.`".into()]
            ]
        );
        let braces = literal_forms("tags in braces").concat();
        assert_eq!(braces.len(), 6, "{braces:?}");
        assert!(braces.contains(&"'{'".to_string()) && braces.contains(&"\"}\"".to_string()));
        for (word, literal) in [
            ("parenthesis", "'('"),
            ("parentheses", "')'"),
            ("slashes", "'/'"),
            ("newline", "'\\n'"),
            ("backslash", "'\\\\'"),
            ("commas", "','"),
            ("underscores", "'_'"),
        ] {
            assert!(
                literal_forms(word).concat().contains(&literal.to_string()),
                "{word}"
            );
        }
        // A literal is never a code word's form.
        let dot = &concepts("dot")[0];
        let literal = dot.forms.iter().find(|f| is_literal(f)).unwrap();
        assert_eq!(form_match("dot", "dot", literal), 0.0);
        assert!(literal_forms("spaces and hashes").concat().is_empty());
    }

    #[test]
    fn drops_stop_and_question_words_and_stems() {
        let c = concepts("Where is the code that evicts keys when memory is full?");
        let words: Vec<&str> = c.iter().map(|c| c.word.as_str()).collect();
        assert_eq!(words, ["evicts", "keys", "memory", "full"]);
        assert_eq!(c[0].forms[0].stem, "evict");
        assert_eq!(c[1].forms[0].stem, "key");
    }

    #[test]
    fn one_concept_per_stem_and_identifiers_split() {
        let c = concepts("parseConfig parses configs");
        let words: Vec<&str> = c.iter().map(|c| c.word.as_str()).collect();
        assert_eq!(words, ["parse", "config"]);
    }

    #[test]
    fn widened_forms_weigh_less_and_skip_other_concepts() {
        let c = concepts("delete the temporary directory");
        let delete = &c[0];
        assert_eq!(delete.forms[0].weight, 1.0);
        let unlink = delete.forms.iter().find(|f| f.stem == "unlink").unwrap();
        assert!(unlink.weight < 1.0);
        let dir = c.iter().find(|c| c.word == "directory").unwrap();
        assert_eq!(dir.forms[0].pattern, "director");
        // "tmp" widens "temporary" but is not a concept of its own.
        assert!(c[1].forms.iter().any(|f| f.stem == "tmp"));
        assert!(concepts("delete remove").iter().all(|c| c
            .forms
            .iter()
            .skip(1)
            .all(|f| f.stem != "remov" && f.stem != "delet")));
    }

    #[test]
    fn matches_code_words_by_stem_prefix_or_containment() {
        let c = concepts("evicting");
        let form = &c[0].forms[0];
        assert_eq!(form_match("evictions", &stem("evictions"), form), 1.0);
        assert_eq!(form_match("evict", "evict", form), 1.0);
        let stamp = &concepts("stamp")[0].forms[0];
        assert_eq!(form_match("timestamp", &stem("timestamp"), stamp), 0.4);
        let alive = &concepts("alive")[0].forms[0];
        assert_eq!(
            form_match("keepalive", &stem("keepalive"), alive),
            0.0,
            "too short to look inside"
        );
        assert_eq!(form_match("evictable", "evict", form), 1.0);
        assert_eq!(form_match("other", "other", form), 0.0);
    }

    #[test]
    fn adverbs_are_also_looked_for_as_their_adjective() {
        assert_eq!(adverb_base("lazily").as_deref(), Some("lazy"));
        assert_eq!(adverb_base("gradually").as_deref(), Some("gradual"));
        assert_eq!(adverb_base("only"), None);
        assert_eq!(adverb_base("apply"), None);
        assert_eq!(adverb_base("supply"), None);
        let lazy = &concepts("load lazily")[1];
        assert!(
            lazy.forms
                .iter()
                .any(|f| f.stem == "lazi" && f.weight == 1.0),
            "{lazy:?}"
        );
    }

    #[test]
    fn british_spellings_are_also_looked_for_as_american_ones() {
        assert_eq!(
            american_spelling("neighbouring").as_deref(),
            Some("neighboring")
        );
        assert_eq!(american_spelling("normalise").as_deref(), Some("normalize"));
        assert_eq!(american_spelling("analyse").as_deref(), Some("analyze"));
        assert_eq!(american_spelling("hour"), None, "too short to be British");
        assert_eq!(american_spelling("rise"), None);
        assert_eq!(american_spelling("parse"), None);
        let c = &concepts("neighbouring cells")[0];
        assert!(c.forms.iter().any(|f| f.stem == "neighbor"), "{c:?}");
    }

    #[test]
    fn a_question_of_stop_words_has_no_concepts() {
        assert!(concepts("where is it?").is_empty());
        assert!(concepts("a 42 x").is_empty());
        assert!(
            concepts("decode xFF").iter().all(|c| c.word != "ff"),
            "two letters only when known, in a question"
        );
        assert_eq!(concepts("db")[0].word, "db");
    }
}
