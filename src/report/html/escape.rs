//! Escaping text into HTML. Everything the page shows that comes from
//! outside symcross's own words (source text, names, messages,
//! expressions, values) goes through `escape`, so that a harness comment
//! holding `<script>` is shown, never run.

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities: safe in
/// element content and in quoted attribute values alike.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_becomes_text() {
        assert_eq!(escape("<script>alert('x')</script>"), "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
        assert_eq!(escape("a && \"b\""), "a &amp;&amp; &quot;b&quot;");
        assert_eq!(escape("⟪x⟫ plain"), "⟪x⟫ plain");
    }
}
