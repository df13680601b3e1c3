//! A shell command line, as far as the hooks need it: the simple commands
//! (words and redirections) of each pipeline, and how pipelines are joined.
//!
//! This is a reader for the plain command lines agents type (`cat a.rs`,
//! `sed -n '10,40p' src/x.rs | nl`, `cd web && rg -n foo`), not a shell:
//! quotes and backslashes are undone, but nothing is expanded. A word
//! holding an unquoted `$`, a backtick, a glob character or a leading `~`
//! is marked [`Word::literal`] false, so no file is guessed from it; a line
//! with a command substitution, a subshell or a here-document is not read
//! at all ([`parse`] returns `None`). Anything unsure means "no read
//! here", never a wrong one.

/// One word of a simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word with its quotes and backslashes undone.
    pub text: String,
    /// False when the shell would expand it (`$VAR`, `*.rs`, `~/x`).
    pub literal: bool,
}

/// One simple command of a pipeline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stage {
    pub words: Vec<Word>,
    /// Standard output goes to a file (`> out`, `>> log`, `&> x`), not to
    /// the agent.
    pub stdout_to_file: bool,
    /// `< FILE`: standard input read from a file.
    pub stdin_file: Option<Word>,
}

impl Stage {
    /// The words' texts.
    pub fn texts(&self) -> Vec<&str> {
        self.words.iter().map(|w| w.text.as_str()).collect()
    }
}

/// Stages joined by `|`, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pipeline {
    pub stages: Vec<Stage>,
}

/// The pipelines of a command line, in order (joined by `&&`, `||`, `;`,
/// `&` or newlines), or `None` for a line this reader does not follow.
pub fn parse(line: &str) -> Option<Vec<Pipeline>> {
    let mut pipelines = vec![Pipeline::default()];
    let mut stage = Stage::default();
    let mut word: Option<Word> = None;
    // A redirection waiting for its target: (fd, is output).
    let mut redirect: Option<(u32, bool)> = None;
    let mut chars = line.chars().peekable();

    // Ends the word being read, giving it to a pending redirection or the
    // stage.
    fn finish(word: &mut Option<Word>, redirect: &mut Option<(u32, bool)>, stage: &mut Stage) {
        let Some(w) = word.take() else { return };
        match redirect.take() {
            // To a file or /dev/null alike, the agent does not see it.
            Some((fd, true)) => stage.stdout_to_file |= fd == 1,
            Some((_, false)) => stage.stdin_file = Some(w),
            None => stage.words.push(w),
        }
    }
    fn end_stage(stage: &mut Stage, pipelines: &mut [Pipeline]) {
        let done = std::mem::take(stage);
        if !done.words.is_empty() || done.stdin_file.is_some() {
            pipelines.last_mut().unwrap().stages.push(done);
        }
    }

    while let Some(c) = chars.next() {
        let current = || Word {
            text: String::new(),
            literal: true,
        };
        match c {
            ' ' | '\t' => finish(&mut word, &mut redirect, &mut stage),
            '\'' => {
                let w = word.get_or_insert_with(current);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.text.push(c),
                        None => return None,
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(current);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.text.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                w.text.push('\\');
                                w.text.push(c);
                            }
                            None => return None,
                        },
                        Some('`') => return None,
                        Some('$') => {
                            if chars.peek() == Some(&'(') {
                                return None;
                            }
                            w.literal = false;
                            w.text.push('$');
                        }
                        Some(c) => w.text.push(c),
                        None => return None,
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => word.get_or_insert_with(current).text.push(c),
                None => return None,
            },
            '`' | '(' | ')' => return None,
            '$' => {
                if chars.peek() == Some(&'(') {
                    return None;
                }
                let w = word.get_or_insert_with(current);
                w.literal = false;
                w.text.push('$');
            }
            '#' if word.is_none() => {
                // A comment, to the end of the line.
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                finish(&mut word, &mut redirect, &mut stage);
                end_stage(&mut stage, &mut pipelines);
                pipelines.push(Pipeline::default());
            }
            '>' | '<' => {
                // `2>`, `1>`: a number right before is the descriptor.
                let fd = match &word {
                    Some(w)
                        if w.literal
                            && !w.text.is_empty()
                            && w.text.bytes().all(|b| b.is_ascii_digit()) =>
                    {
                        let fd = w.text.parse().unwrap_or(u32::MAX);
                        word = None;
                        Some(fd)
                    }
                    _ => None,
                };
                finish(&mut word, &mut redirect, &mut stage);
                if c == '<' {
                    if chars.peek() == Some(&'<') {
                        return None; // a here-document or here-string
                    }
                    redirect = Some((fd.unwrap_or(0), false));
                    continue;
                }
                if chars.peek() == Some(&'>') {
                    chars.next();
                }
                if chars.peek() == Some(&'&') {
                    // `2>&1`, `>&2`: descriptors, not files.
                    chars.next();
                    let mut target = String::new();
                    while let Some(&d) = chars.peek() {
                        if d.is_ascii_digit() || d == '-' {
                            target.push(d);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    if fd.unwrap_or(1) == 1 && target != "1" {
                        stage.stdout_to_file = true;
                    }
                    continue;
                }
                redirect = Some((fd.unwrap_or(1), true));
            }
            '|' | '&' | ';' | '\n' => {
                finish(&mut word, &mut redirect, &mut stage);
                if redirect.is_some() {
                    return None;
                }
                let next = chars.peek().copied();
                match (c, next) {
                    ('&', Some('>')) => {
                        // `&>file`: both streams to a file.
                        chars.next();
                        if chars.peek() == Some(&'>') {
                            chars.next();
                        }
                        redirect = Some((1, true));
                        continue;
                    }
                    ('|', Some('|')) | ('&', Some('&')) => {
                        chars.next();
                        end_stage(&mut stage, &mut pipelines);
                        pipelines.push(Pipeline::default());
                    }
                    ('|', _) => {
                        if next == Some('&') {
                            chars.next();
                        }
                        end_stage(&mut stage, &mut pipelines);
                    }
                    _ => {
                        end_stage(&mut stage, &mut pipelines);
                        pipelines.push(Pipeline::default());
                    }
                }
            }
            '*' | '?' | '[' => {
                let w = word.get_or_insert_with(current);
                w.literal = false;
                w.text.push(c);
            }
            '~' if word.is_none() => {
                word = Some(Word {
                    text: "~".into(),
                    literal: false,
                });
            }
            c => word.get_or_insert_with(current).text.push(c),
        }
    }
    finish(&mut word, &mut redirect, &mut stage);
    if redirect.is_some() {
        return None;
    }
    end_stage(&mut stage, &mut pipelines);
    pipelines.retain(|p| !p.stages.is_empty());
    Some(pipelines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Vec<Vec<String>>> {
        parse(line)
            .unwrap()
            .iter()
            .map(|p| {
                p.stages
                    .iter()
                    .map(|s| s.words.iter().map(|w| w.text.clone()).collect())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn quotes_pipes_and_lists() {
        assert_eq!(
            words(r#"sed -n '10,20p' "src/a b.rs" | nl && cat x\ y; head -3 z"#),
            vec![
                vec![vec!["sed", "-n", "10,20p", "src/a b.rs"], vec!["nl"]],
                vec![vec!["cat", "x y"]],
                vec![vec!["head", "-3", "z"]],
            ]
        );
        assert_eq!(
            words("a || b & c"),
            vec![vec![vec!["a"]], vec![vec!["b"]], vec![vec!["c"]]]
        );
        assert_eq!(words("cat a # the file"), vec![vec![vec!["cat", "a"]]]);
    }

    #[test]
    fn redirections_are_not_words() {
        let p = parse("cat a 2>/dev/null").unwrap();
        assert_eq!(p[0].stages[0].texts(), ["cat", "a"]);
        assert!(!p[0].stages[0].stdout_to_file);
        let p = parse("cat a 2>&1 | head -5").unwrap();
        assert!(!p[0].stages[0].stdout_to_file);
        assert_eq!(p[0].stages.len(), 2);
        for line in [
            "cat a > out",
            "cat a >> out",
            "cat a &> out",
            "cat a>out",
            "cat a 1>/dev/null",
            "cat a >&2",
        ] {
            let p = parse(line).unwrap();
            assert!(p[0].stages[0].stdout_to_file, "{line}");
            assert_eq!(p[0].stages[0].texts(), ["cat", "a"], "{line}");
        }
        let p = parse("head -n 3 < src/a.rs").unwrap();
        assert_eq!(p[0].stages[0].stdin_file.as_ref().unwrap().text, "src/a.rs");
    }

    #[test]
    fn expansions_are_marked_and_substitutions_refused() {
        let p = parse(r#"cat $F "$HOME/x" src/*.rs ~/a 'lit$'"#).unwrap();
        let literal: Vec<bool> = p[0].stages[0].words.iter().map(|w| w.literal).collect();
        assert_eq!(literal, [true, false, false, false, false, true]);
        for line in [
            "cat $(ls)",
            "cat `ls`",
            "(cat a)",
            "cat <<EOF",
            "cat 'open",
            "cat a >",
        ] {
            assert_eq!(parse(line), None, "{line}");
        }
    }
}
