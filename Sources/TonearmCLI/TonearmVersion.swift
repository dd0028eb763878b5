/// The release this `tonearm` belongs to, printed by `tonearm --version`. scripts/package.sh names the
/// archive after it and python/build_wheel.py versions the wheel with it, both by asking the built binary,
/// so this constant is the one place a release number is written.
let tonearmVersion = "0.1.0"
