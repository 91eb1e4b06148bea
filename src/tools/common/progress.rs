//! The progress bar of the long-running tools (`lull datagen`, `lull solve`, `lull book
//! build`): one line on standard error, drawn only when it is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar on standard error over `len` steps. `counts` is the part of the template
/// between the bar and the message, e.g. `{pos}/{len} games` or `{bytes}/{total_bytes}`;
/// the elapsed time and the estimate follow the message.
pub fn progress_bar(len: u64, counts: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&template(counts)) {
        bar.set_style(style);
    }
    bar
}

/// The template of a bar: the bar, `counts`, the message, the elapsed time and the estimate.
fn template(counts: &str) -> String {
    format!("{{bar:40}} {counts} {{msg}} [{{elapsed_precise}} eta {{eta}}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_of_the_tools_are_valid() {
        assert_eq!(
            template("{pos}/{len} games"),
            "{bar:40} {pos}/{len} games {msg} [{elapsed_precise} eta {eta}]"
        );
        for counts in [
            "{pos}/{len} games",
            "{pos}/{len} solved",
            "{bytes}/{total_bytes}",
        ] {
            assert!(
                ProgressStyle::with_template(&template(counts)).is_ok(),
                "{counts}"
            );
        }
    }

    #[test]
    fn the_bar_counts_its_steps() {
        let bar = progress_bar(3, "{pos}/{len} games");
        bar.inc(2);
        assert_eq!(bar.position(), 2);
        assert_eq!(bar.length(), Some(3));
        bar.finish_and_clear();
    }
}
