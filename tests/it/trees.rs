//! Fixture trees more than one module searches.

use crate::util::Fixture;

/// `class Widget` in `src/core.py`, and 40 modules that use it 2 to 6
/// times each: a search for `Widget` has a ranked page and more.
pub fn widget_uses(fx: &Fixture) {
    fx.write(
        "src/core.py",
        "class Widget:\n    def spin(self):\n        return Widget()\n",
    );
    for i in 0..40 {
        let body: String = (0..(i % 5 + 2))
            .map(|j| format!("w{j} = Widget()  # use {i}.{j}\n"))
            .collect();
        fx.write(format!("src/m{i:02}.py"), body);
    }
}

/// A small Rust and TypeScript tree where `config` and `Config` are
/// spelled several ways, with explicit modification times (seconds after
/// the epoch): newest first is web/app.ts, web/view.tsx, src/load.rs,
/// src/main.rs.
pub fn config_app() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/main.rs",
        "fn main() {\n    let config = load();\n    run(config);\n}\n",
    )
    .write(
        "src/load.rs",
        "pub fn load() -> Config {\n    Config::default()\n}\n",
    )
    .write("web/app.ts", "const config = 1;\n")
    .write("web/view.tsx", "export const Config = 2;\n");
    fx.touch("src/main.rs", 1_000)
        .touch("src/load.rs", 2_000)
        .touch("web/app.ts", 4_000)
        .touch("web/view.tsx", 3_000);
    fx
}
