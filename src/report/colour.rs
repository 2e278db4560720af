//! Colour in the text report, as compilers use it: bold locations, red
//! `error:`, magenta `warning:`, grey `note:`, a green caret. On when
//! standard output is a terminal and `NO_COLOR` is not set (no-color.org),
//! or when `--color always` asks for it; never inside files or pipes by
//! default, so CI logs and problem matchers see plain text.

/// How the text report is decorated.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TextStyle {
    /// Whether ANSI colour escapes are written.
    pub colour: bool,
}

/// `--color`: `auto` (default) decides by the terminal and `NO_COLOR`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ColourChoice {
    #[default]
    /// Colour when standard output is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always colour, even when `NO_COLOR` is set.
    Always,
    /// Never colour.
    Never,
}

impl TextStyle {
    /// The style for text written to standard output under `choice`. An
    /// explicit `always` wins over `NO_COLOR`, as no-color.org asks.
    pub fn for_stdout(choice: ColourChoice) -> TextStyle {
        let colour = match choice {
            ColourChoice::Always => true,
            ColourChoice::Never => false,
            ColourChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                // SAFETY: isatty only inspects the descriptor.
                !no_color && unsafe { libc::isatty(1) } == 1
            }
        };
        TextStyle { colour }
    }

    fn paint(&self, codes: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{codes}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `text` in bold (locations).
    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }
    /// `text` in bold red (`error:`).
    pub fn error(&self, text: &str) -> String {
        self.paint("1;31", text)
    }
    /// `text` in bold magenta (`warning:`).
    pub fn warning(&self, text: &str) -> String {
        self.paint("1;35", text)
    }
    /// `text` in bold grey (`note:`).
    pub fn note(&self, text: &str) -> String {
        self.paint("1;30", text)
    }
    /// `text` in bold green (the caret under a column).
    pub fn caret(&self, text: &str) -> String {
        self.paint("1;32", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_style_adds_no_escape_codes() {
        let s = TextStyle { colour: false };
        assert_eq!(s.error("error:"), "error:");
        let c = TextStyle { colour: true };
        assert_eq!(c.error("error:"), "\x1b[1;31merror:\x1b[0m");
        assert_eq!(TextStyle::for_stdout(ColourChoice::Never), s);
        assert_eq!(TextStyle::for_stdout(ColourChoice::Always), c);
    }
}
