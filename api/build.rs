//! Rebuild when a migration is added: they are compiled into the binary.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
