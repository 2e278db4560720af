//! The rule file parser. Grammar, one rule per logical line (a line that
//! starts with whitespace continues the previous one):
//!
//! ```text
//! ; law: <the law and why the assumptions suffice>   (required, may span lines)
//! rule NAME: LHS => RHS [if COND, COND...] [assume: none | A, B...]
//! rule NAME: LHS <=> RHS ...                          (both directions)
//! ```

use super::conditions::SideCondition;
use super::expand::{bindings, expand};
use super::typing::infer_var_widths;
use super::{Rule, RuleError, RuleProblem};
use crate::assumptions::{Assumption, Assumptions};
use crate::canon::lang::{CanonLang, Literal, Op};
use egg::{ENodeOrVar, Pattern, PatternAst};
use std::path::Path;

/// A logical line: text and the line number it starts on.
struct Logical {
    line: usize,
    text: String,
    law: Option<String>,
}

fn logical_lines(text: &str) -> Vec<Logical> {
    let mut out: Vec<Logical> = Vec::new();
    let mut law: Option<String> = None;
    let mut in_rule = false;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if let Some(c) = trimmed.strip_prefix(';') {
            let c = c.trim();
            if let Some(l) = c.strip_prefix("law:") {
                law = Some(l.trim().to_string());
            } else if let (Some(l), false) = (law.as_mut(), c.is_empty()) {
                l.push(' ');
                l.push_str(c);
            }
            in_rule = false;
            continue;
        }
        if trimmed.is_empty() {
            in_rule = false;
            law = None;
            continue;
        }
        if raw.starts_with(char::is_whitespace) && in_rule {
            let last = out.last_mut().expect("in_rule implies a rule");
            last.text.push(' ');
            last.text.push_str(trimmed);
            continue;
        }
        out.push(Logical { line: i + 1, text: trimmed.to_string(), law: law.take() });
        in_rule = true;
    }
    out
}

/// Splits at the first occurrence of `sep` outside parentheses.
fn split_top(s: &str, sep: &str) -> Option<(String, String)> {
    let mut depth = 0i32;
    // char_indices: a rule may hold any character, and slicing must stay
    // on character boundaries.
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(sep) => return Some((s[..i].trim().to_string(), s[i + sep.len()..].trim().to_string())),
            _ => {}
        }
    }
    None
}

/// The parts of a rule line, before placeholder expansion.
struct RawRule {
    name: String,
    lhs: String,
    rhs: String,
    bidirectional: bool,
    conditions: Vec<String>,
    assumptions: Assumptions,
}

fn parse_line(text: &str) -> Result<RawRule, RuleProblem> {
    let syntax = |m: &str| RuleProblem::Syntax(m.to_string());
    let rest = text.strip_prefix("rule ").ok_or_else(|| syntax("a line must start with `rule` or `;`"))?;
    let (name, rest) = rest.split_once(':').ok_or_else(|| syntax("expected `rule NAME: ...`"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(syntax(&format!("bad rule name `{name}`")));
    }
    let open = rest.rfind("[assume:").ok_or_else(|| syntax("missing `[assume: ...]` (write `[assume: none]`)"))?;
    let list = rest[open + 8..].trim_end().strip_suffix(']').ok_or_else(|| syntax("`[assume:` without `]`"))?;
    let mut assumptions = Assumptions::NONE;
    if list.trim() != "none" {
        for a in list.split(',') {
            let a = a.trim();
            let parsed: Assumption = a.parse().map_err(|_| RuleProblem::UnknownAssumption(a.to_string()))?;
            assumptions = assumptions.with(parsed);
        }
    }
    let body = rest[..open].trim();
    let (pats, conds) = match split_top(body, " if ") {
        Some((p, c)) => (p, Some(c)),
        None => (body.to_string(), None),
    };
    let (lhs, rhs, bidirectional) = match split_top(&pats, "<=>") {
        Some((l, r)) => (l, r, true),
        None => {
            let (l, r) = split_top(&pats, "=>").ok_or_else(|| syntax("expected `LHS => RHS` or `LHS <=> RHS`"))?;
            (l, r, false)
        }
    };
    if lhs.is_empty() || rhs.is_empty() {
        return Err(syntax("empty side"));
    }
    let conditions = match conds {
        None => Vec::new(),
        Some(c) => split_conditions(&c),
    };
    Ok(RawRule { name: name.to_string(), lhs, rhs, bidirectional, conditions, assumptions })
}

fn split_conditions(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Checks operator names and literals word by word, so the error names the
/// culprit rather than egg's parser message.
fn check_words(text: &str) -> Result<(), RuleProblem> {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let mut after_open = false;
    for w in spaced.split_whitespace() {
        match w {
            "(" => after_open = true,
            ")" => after_open = false,
            _ if w.starts_with('?') => after_open = false,
            _ => {
                if after_open {
                    w.parse::<Op>().map_err(|_| RuleProblem::UnknownOperator(w.to_string()))?;
                } else {
                    w.parse::<Literal>().map_err(|_| RuleProblem::BadLiteral(w.to_string()))?;
                }
                after_open = false;
            }
        }
    }
    Ok(())
}

/// Deepest nesting of a rule side. Rules are written by hand and a few
/// levels deep; the limit keeps egg's recursive printing of patterns safe.
pub const MAX_PATTERN_DEPTH: usize = 1000;

fn parse_pattern(text: &str) -> Result<Pattern<CanonLang>, RuleProblem> {
    check_words(text)?;
    let ast = parse_pattern_ast(text)?;
    check_arity(&ast)?;
    Ok(Pattern::new(ast))
}

/// Reads an s-expression pattern bottom-up with an explicit stack of open
/// lists, so any nesting depth is read without recursion (egg's own parser
/// recurses); depths past `MAX_PATTERN_DEPTH` are an error.
fn parse_pattern_ast(text: &str) -> Result<PatternAst<CanonLang>, RuleProblem> {
    use egg::FromOp;
    let syntax = |m: String| RuleProblem::Syntax(m);
    let mut ast = PatternAst::<CanonLang>::default();
    // Each open list: its operator once read, and its children so far.
    let mut open: Vec<(Option<String>, Vec<egg::Id>)> = Vec::new();
    let mut root: Option<egg::Id> = None;
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    for word in spaced.split_whitespace() {
        if root.is_some() {
            return Err(syntax(format!("unexpected `{word}` after the end of the pattern")));
        }
        let id = match word {
            "(" => {
                if matches!(open.last(), Some((None, _))) {
                    return Err(syntax("`(` where an operator name is expected".into()));
                }
                if open.len() >= MAX_PATTERN_DEPTH {
                    return Err(syntax(format!("pattern nested deeper than {MAX_PATTERN_DEPTH} levels")));
                }
                open.push((None, Vec::new()));
                continue;
            }
            ")" => {
                let (op, kids) = open.pop().ok_or_else(|| syntax("unbalanced `)`".into()))?;
                let op = op.ok_or_else(|| syntax("empty `()`".into()))?;
                let node = CanonLang::from_op(&op, kids).map_err(|_| RuleProblem::UnknownOperator(op.clone()))?;
                ast.add(ENodeOrVar::ENode(node))
            }
            _ => {
                if let Some((op @ None, _)) = open.last_mut() {
                    if word.starts_with('?') {
                        return Err(syntax(format!("variable `{word}` where an operator name is expected")));
                    }
                    *op = Some(word.to_string());
                    continue;
                }
                if word.starts_with('?') {
                    let var = word.parse().map_err(|_| syntax(format!("bad variable `{word}`")))?;
                    ast.add(ENodeOrVar::Var(var))
                } else {
                    let leaf = CanonLang::from_op(word, Vec::new()).map_err(|_| RuleProblem::BadLiteral(word.to_string()))?;
                    ast.add(ENodeOrVar::ENode(leaf))
                }
            }
        };
        match open.last_mut() {
            Some((_, kids)) => kids.push(id),
            None => root = Some(id),
        }
    }
    if !open.is_empty() {
        return Err(syntax("unbalanced `(`".into()));
    }
    if root.is_none() {
        return Err(syntax("empty pattern".into()));
    }
    Ok(ast)
}

fn check_arity(ast: &PatternAst<CanonLang>) -> Result<(), RuleProblem> {
    for n in ast.as_ref() {
        if let ENodeOrVar::ENode(CanonLang::Node(op, kids)) = n {
            if let Some(expected) = op.arity() {
                if expected != kids.len() {
                    return Err(RuleProblem::Arity { op: op.to_string(), expected, given: kids.len() });
                }
            }
        }
    }
    Ok(())
}

fn build(raw: &RawRule, text: &str, b: &super::expand::Binding) -> Result<Rule, RuleProblem> {
    let ex = |s: &str| expand(s, b).map_err(RuleProblem::BadLiteral);
    let lhs = parse_pattern(&ex(&raw.lhs)?)?;
    let rhs = parse_pattern(&ex(&raw.rhs)?)?;
    // A bare variable as the searched side would match every e-class.
    let bare = |p: &Pattern<CanonLang>| matches!(p.ast.as_ref().last(), Some(ENodeOrVar::Var(_)));
    if bare(&lhs) || (raw.bidirectional && bare(&rhs)) {
        return Err(RuleProblem::BareVariable);
    }
    let bound = lhs.vars();
    let unbound = |side: &'static str, vars: Vec<egg::Var>, bound: &[egg::Var]| {
        vars.into_iter().find(|v| !bound.contains(v)).map_or(Ok(()), |v| Err(RuleProblem::UnboundVariable { var: v.to_string(), side }))
    };
    unbound("right-hand side", rhs.vars(), &bound)?;
    if raw.bidirectional {
        unbound("left-hand side (the rule is `<=>`)", lhs.vars(), &rhs.vars())?;
    }
    let mut conditions = Vec::new();
    for c in &raw.conditions {
        let sc = SideCondition::parse(&ex(c)?).map_err(|(t, m)| {
            if m.is_empty() {
                RuleProblem::UnknownCondition(t)
            } else {
                RuleProblem::BadCondition(t, m)
            }
        })?;
        unbound("side condition", sc.vars(), &bound)?;
        if raw.bidirectional {
            unbound("side condition (the rule is `<=>`)", sc.vars(), &rhs.vars())?;
        }
        conditions.push(sc);
    }
    infer_var_widths(&lhs.ast, &rhs.ast).map_err(RuleProblem::Width)?;
    let _ = text;
    Ok(Rule {
        name: format!("{}{}", raw.name, b.suffix()),
        family: raw.name.clone(),
        law: String::new(),
        lhs,
        rhs,
        bidirectional: raw.bidirectional,
        conditions,
        assumptions: raw.assumptions,
        file: Default::default(),
        line: 0,
    })
}

/// Parses one rule file's text; `file` is used in error messages.
pub fn parse_rules(text: &str, file: &Path) -> Result<Vec<Rule>, RuleError> {
    let mut rules = Vec::new();
    for l in logical_lines(text) {
        let at = |problem| RuleError::At { file: file.display().to_string(), line: l.line, problem };
        let raw = parse_line(&l.text).map_err(at)?;
        let law = l.law.clone().ok_or_else(|| at(RuleProblem::MissingLaw(raw.name.clone())))?;
        let all_text = format!("{} {} {}", raw.lhs, raw.rhs, raw.conditions.join(" "));
        for b in bindings(&all_text) {
            let mut r = build(&raw, &l.text, &b).map_err(at)?;
            r.law = law.clone();
            r.file = file.to_path_buf();
            r.line = l.line;
            rules.push(r);
        }
    }
    Ok(rules)
}
