//! KLEE harnesses run unchanged: `#include <klee/klee.h>`, KLEE's API
//! functions behaving as KLEE documents them, and `.ktest` files for every
//! witness (`--output-dir`). Fixtures: tests/fixtures/klee/.

mod common;

common::fixture_tests!(
    |name: &str| common::check_fixture(&format!("tests/fixtures/klee/{name}.c"), &[]);clamp_index, range_and_int, range_witness);

/// A `.ktest` file as KLEE writes it (version 3, big-endian), read back.
struct KTest {
    args: Vec<String>,
    objects: Vec<(String, Vec<u8>)>,
}

fn read_ktest(bytes: &[u8]) -> KTest {
    let mut at = 0usize;
    let mut take = |n: usize| {
        let s = &bytes[at..at + n];
        at += n;
        s.to_vec()
    };
    assert_eq!(take(5), b"KTEST", "magic");
    let u32be = |t: &mut dyn FnMut(usize) -> Vec<u8>| u32::from_be_bytes(t(4).try_into().unwrap());
    assert_eq!(u32be(&mut take), 3, "version");
    let nargs = u32be(&mut take);
    let mut args = Vec::new();
    for _ in 0..nargs {
        let len = u32be(&mut take) as usize;
        args.push(String::from_utf8(take(len)).unwrap());
    }
    let (_sym_argvs, _sym_argv_len) = (u32be(&mut take), u32be(&mut take));
    let nobjects = u32be(&mut take);
    let mut objects = Vec::new();
    for _ in 0..nobjects {
        let len = u32be(&mut take) as usize;
        let name = String::from_utf8(take(len)).unwrap();
        let size = u32be(&mut take) as usize;
        objects.push((name, take(size)));
    }
    KTest { args, objects }
}

#[test]
fn witnesses_are_written_as_ktest_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("klee-out");
    let harness = common::repo().join("tests/fixtures/klee/range_witness.c");
    let run = common::symcross(&["check", harness.to_str().unwrap(), "--output-dir", out.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let ktest = std::fs::read(out.join("test000001.ktest")).expect("test000001.ktest");
    let t = read_ktest(&ktest);
    assert_eq!(t.args.len(), 1);
    assert_eq!(t.objects.len(), 1, "one object: day");
    assert_eq!(t.objects[0].0, "day");
    assert_eq!(i32::from_le_bytes(t.objects[0].1.clone().try_into().unwrap()), 6, "the witness day is 6");
}

#[test]
fn ktest_objects_follow_creation_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let harness = common::repo().join("tests/fixtures/klee/clamp_index.c");
    let run = common::symcross(&["check", harness.to_str().unwrap(), "--output-dir", out.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let t = read_ktest(&std::fs::read(out.join("test000001.ktest")).unwrap());
    assert_eq!(t.objects.len(), 1);
    let (name, bytes) = &t.objects[0];
    assert_eq!(name, "i");
    assert_eq!(i32::from_le_bytes(bytes.clone().try_into().unwrap()), 16, "clamp_index(16) is out of the table");
}
