//! The integer normal form (canon/int_normal.rs) and the range facts
//! (ranges/) are sound bit for bit: every normal form equals its
//! expression on every input the path allows. Checked two ways: by
//! evaluation of random expressions on edge and random inputs, and by the
//! solver (Z3) on one instance of each rule and on random expressions.
//! Known answers: the shapes the rules exist for meet.

use rand::{Rng, SeedableRng};
use symcross::canon::IntNormalizer;
use symcross::expr::*;
use symcross::solver::{Query, Solver, SolverResult, Z3Solver};

/// Four input bytes (array 0) and two 16-bit words (array 1).
struct Inputs {
    bytes: Vec<ExprId>,
    words: Vec<ExprId>,
}

fn inputs(p: &mut ExprPool) -> Inputs {
    let a = p.new_array("a", 4);
    let w = p.new_array("w", 4);
    Inputs { bytes: (0..4).map(|i| p.input_byte(a, i)).collect(), words: (0..2).map(|i| p.input_word(w, 2 * i, 16)).collect() }
}

fn resize(p: &mut ExprPool, x: ExprId, w: Width, signed: bool) -> ExprId {
    let v = p.width(x);
    if v == w {
        x
    } else if v > w {
        p.trunc(x, w)
    } else if signed {
        p.sext(x, w)
    } else {
        p.zext(x, w)
    }
}

/// A random integer expression of `w` bits, `depth` deep, in the shapes
/// SIMD code and its C reference take: sums, differences, products,
/// extensions, truncations, shifts by constants, saturations, abs, min,
/// max, comparisons and selects.
fn random_expr(p: &mut ExprPool, rng: &mut rand::rngs::StdRng, ins: &Inputs, w: Width, depth: u32) -> ExprId {
    if depth == 0 || rng.gen_ratio(1, 6) {
        let leaf = match rng.gen_range(0..4) {
            0 => ins.bytes[rng.gen_range(0..ins.bytes.len())],
            1 => ins.words[rng.gen_range(0..ins.words.len())],
            2 => {
                let c: i64 = [0, 1, -1, 2, 32, 255, 256, -32768, 32767, 2047, -2048][rng.gen_range(0..11)];
                p.constant(w, c as u128)
            }
            _ => {
                let b = ins.bytes[rng.gen_range(0..ins.bytes.len())];
                p.zext(b, 16)
            }
        };
        let signed = rng.gen_bool(0.5);
        return resize(p, leaf, w, signed);
    }
    let d = depth - 1;
    let sub = |p: &mut ExprPool, rng: &mut rand::rngs::StdRng, w: Width| random_expr(p, rng, ins, w, d);
    match rng.gen_range(0..16) {
        0 | 1 => {
            let (a, b) = (sub(p, rng, w), sub(p, rng, w));
            p.add(a, b)
        }
        2 => {
            let (a, b) = (sub(p, rng, w), sub(p, rng, w));
            p.sub(a, b)
        }
        3 => {
            let (a, b) = (sub(p, rng, w), sub(p, rng, w));
            p.mul(a, b)
        }
        4 => {
            let a = sub(p, rng, w);
            p.not(a)
        }
        5 => {
            // Computed narrower or wider, then extended or cut back.
            let v = [8, 9, 12, 16, 17, 32][rng.gen_range(0..6)];
            let a = sub(p, rng, v);
            resize(p, a, w, rng.gen_bool(0.5))
        }
        6 => {
            let a = sub(p, rng, w);
            let k = p.constant(w, rng.gen_range(1..w.min(8)) as u128);
            let op = [BinOp::Shl, BinOp::LShr, BinOp::AShr][rng.gen_range(0..3)];
            p.bin(op, a, k)
        }
        7 => {
            // A saturating subtract, as the intrinsics lower it.
            let (a, b) = (sub(p, rng, w), sub(p, rng, w));
            let (x, y) = (p.sext(a, w + 1), p.sext(b, w + 1));
            let r = p.sub(x, y);
            let lo = p.constant(w + 1, (1u128 << (w - 1)).wrapping_neg());
            let hi = p.constant(w + 1, (1u128 << (w - 1)) - 1);
            let below = p.cmp(CmpOp::Slt, r, lo);
            let above = p.cmp(CmpOp::Slt, hi, r);
            let c = p.ite(above, hi, r);
            let c = p.ite(below, lo, c);
            p.trunc(c, w)
        }
        8 => {
            // abs, six ways, and -abs as min(x, -x).
            let a = sub(p, rng, w);
            let zero = p.constant(w, 0);
            let neg = p.sub(zero, a);
            match rng.gen_range(0..7) {
                4 => {
                    let c = p.cmp(CmpOp::Slt, a, neg);
                    p.ite(c, neg, a)
                }
                5 => {
                    let c = p.cmp(CmpOp::Sle, neg, a);
                    p.ite(c, a, neg)
                }
                6 => {
                    let c = p.cmp(CmpOp::Slt, a, neg);
                    p.ite(c, a, neg)
                }
                0 => {
                    let c = p.cmp(CmpOp::Slt, a, zero);
                    p.ite(c, neg, a)
                }
                1 => {
                    let c = p.cmp(CmpOp::Sle, a, zero);
                    p.ite(c, neg, a)
                }
                2 => {
                    let c = p.cmp(CmpOp::Slt, zero, a);
                    p.ite(c, a, neg)
                }
                _ => {
                    let c = p.cmp(CmpOp::Sle, zero, a);
                    p.ite(c, a, neg)
                }
            }
        }
        9 | 10 => {
            // min or max, signed or not, strict or not, either order.
            let (a, b) = (sub(p, rng, w), sub(p, rng, w));
            let op = [CmpOp::Slt, CmpOp::Sle, CmpOp::Ult, CmpOp::Ule][rng.gen_range(0..4)];
            let c = p.cmp(op, a, b);
            if rng.gen_bool(0.5) {
                p.ite(c, a, b)
            } else {
                p.ite(c, b, a)
            }
        }
        11 => {
            let (a, b) = (sub(p, rng, w), sub(p, rng, w));
            let v = [8, 16, 32][rng.gen_range(0..3)];
            let (x, y) = (sub(p, rng, v), sub(p, rng, v));
            let op = [CmpOp::Eq, CmpOp::Slt, CmpOp::Sle, CmpOp::Ult, CmpOp::Ule][rng.gen_range(0..5)];
            let c = p.cmp(op, x, y);
            p.ite(c, a, b)
        }
        12 => {
            // High bits of a wider value (an arithmetic shift of a sum).
            let a = sub(p, rng, 2 * w);
            let off = rng.gen_range(1..w);
            p.extract(a, off, w)
        }
        13 => {
            // A mask of low bits, or of one run of bits above them (a
            // lane's high byte).
            let a = sub(p, rng, w);
            let low = mask(rng.gen_range(1..w));
            let m = if rng.gen_bool(0.5) { low } else { (low << rng.gen_range(1..w)) & mask(w) };
            let m = p.constant(w, m);
            p.and(a, m)
        }
        _ => {
            let (a, b) = (sub(p, rng, w), sub(p, rng, w));
            let op = [BinOp::And, BinOp::Or, BinOp::Xor][rng.gen_range(0..3)];
            p.bin(op, a, b)
        }
    }
}

/// A random path condition bounding the words (and maybe a byte), in the
/// shapes a harness's `symcross_assume` takes.
fn random_path(p: &mut ExprPool, rng: &mut rand::rngs::StdRng, ins: &Inputs) -> Vec<ExprId> {
    let mut path = Vec::new();
    for &w in &ins.words {
        if rng.gen_bool(0.3) {
            continue;
        }
        let bits = rng.gen_range(4..15);
        let x = p.sext(w, 32);
        let lo = p.constant(32, (-(1i128 << (bits - 1))) as u128);
        let hi = p.constant(32, (1u128 << (bits - 1)) - 1);
        let c = match rng.gen_range(0..3) {
            0 => {
                // (x >= lo) & (x <= hi) != 0, as C's `&` of two tests.
                let below = p.cmp(CmpOp::Slt, x, lo);
                let ge = p.not(below);
                let le = p.cmp(CmpOp::Sle, x, hi);
                let (ge, le) = (p.zext(ge, 32), p.zext(le, 32));
                let both = p.and(ge, le);
                let zero = p.constant(32, 0);
                let is_zero = p.eq(both, zero);
                p.not(is_zero)
            }
            1 => {
                // (unsigned)(x - lo) < 2^bits.
                let neg_lo = p.constant(32, 1u128 << (bits - 1));
                let s = p.add(x, neg_lo);
                let k = p.constant(32, 1u128 << bits);
                p.cmp(CmpOp::Ult, s, k)
            }
            _ => {
                let ge = p.cmp(CmpOp::Sle, lo, x);
                let le = p.cmp(CmpOp::Sle, x, hi);
                p.and(ge, le)
            }
        };
        path.push(c);
    }
    if rng.gen_bool(0.3) {
        let b = ins.bytes[0];
        let k = p.constant(8, rng.gen_range(1..255));
        path.push(p.cmp(CmpOp::Ult, b, k));
    }
    path
}

fn edge_or_random(rng: &mut rand::rngs::StdRng, trial: usize) -> [u8; 8] {
    let mut v = [0u8; 8];
    for (i, b) in v.iter_mut().enumerate() {
        *b = match trial {
            0 => 0,
            1 => 0xff,
            2 => 0x80,
            3 => 0x7f,
            4 => [0x00, 0xff][i % 2],
            5 => [0xff, 0x7f, 0x80, 0x00][i % 4],
            _ => rng.gen(),
        };
    }
    v
}

fn assignment(v: [u8; 8]) -> Assignment {
    let mut asg = Assignment::default();
    asg.arrays.insert(0, v[..4].to_vec());
    asg.arrays.insert(1, v[4..].to_vec());
    asg
}

/// Words bounded by the path are drawn inside their bounds often enough.
fn bounded_assignment(rng: &mut rand::rngs::StdRng, trial: usize) -> [u8; 8] {
    let mut v = edge_or_random(rng, trial);
    if trial.is_multiple_of(2) {
        for k in [4, 6] {
            let x: i16 = rng.gen_range(-40..40) * [1, 8, 64][rng.gen_range(0..3)];
            v[k..k + 2].copy_from_slice(&x.to_le_bytes());
        }
    }
    v
}

#[test]
fn random_expressions_keep_their_values() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(std::env::var("SYMCROSS_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(29));
    let mut checked_on_path = 0;
    for case in 0..1500 {
        let mut p = ExprPool::new();
        let ins = inputs(&mut p);
        let w = [8, 16, 32][case % 3];
        let e = random_expr(&mut p, &mut rng, &ins, w, 4);
        let path = if case % 2 == 0 { random_path(&mut p, &mut rng, &ins) } else { Vec::new() };
        let mut n = IntNormalizer::for_path(&mut p, &path);
        let ne = n.normalize(&mut p, e);
        for trial in 0..200 {
            let asg = assignment(bounded_assignment(&mut rng, trial));
            if path.iter().any(|c| evaluate(&p, *c, &asg) == 0) {
                continue;
            }
            checked_on_path += 1;
            let (x, y) = (evaluate(&p, e, &asg), evaluate(&p, ne, &asg));
            assert_eq!(
                x,
                y,
                "case {case}: {}\nnormal form: {}\npath: {:?}\ninputs {:?}",
                print_expr(&p, e),
                print_expr(&p, ne),
                path.iter().map(|c| print_expr(&p, *c)).collect::<Vec<_>>(),
                asg.arrays
            );
        }
    }
    assert!(checked_on_path > 100_000, "too few inputs on the paths: {checked_on_path}");
}

/// Every value a random expression takes lies in the range the range
/// analysis gives it, read unsigned and signed: concats (a value stored
/// and reloaded), selects on a comparison with a number or of `x` with
/// `0 - x` (abs, max(x, -x), clamps) included.
#[test]
fn ranges_hold_on_random_expressions() {
    use symcross::ranges::RangeAnalysis;
    let mut rng = rand::rngs::StdRng::seed_from_u64(31);
    for case in 0..1500 {
        let mut p = ExprPool::new();
        let ins = inputs(&mut p);
        // Depths that keep every width the generator reaches (it doubles a
        // width per level for high-bit fields) within 64 bits.
        let (w, depth) = [(8, 3), (16, 2), (32, 1)][case % 3];
        let e = if case % 4 == 0 {
            let h = random_expr(&mut p, &mut rng, &ins, 8, 3);
            let l = random_expr(&mut p, &mut rng, &ins, w, depth);
            p.concat(h, l)
        } else {
            random_expr(&mut p, &mut rng, &ins, w, depth)
        };
        let r = RangeAnalysis::new().range(&p, e);
        let width = p.width(e);
        for trial in 0..200 {
            let asg = assignment(bounded_assignment(&mut rng, trial));
            let v = evaluate(&p, e, &asg);
            let (u, s) = (v as i128, to_signed(v, width));
            assert!(
                r.unsigned.lo <= u && u <= r.unsigned.hi && r.signed.lo <= s && s <= r.signed.hi,
                "case {case}: {} = {u} (signed {s}) outside {:?}, inputs {:?}",
                print_expr(&p, e),
                r,
                asg.arrays
            );
        }
    }
}

fn z3_proves_equal(p: &mut ExprPool, path: &[ExprId], x: ExprId, y: ExprId) -> Result<(), String> {
    let eq = p.eq(x, y);
    let differ = p.not(eq);
    let q = Query::new(path.to_vec(), Some(differ)).with_resource_limit(20_000_000);
    match Z3Solver::new().check(p, &q) {
        SolverResult::Unsat => Ok(()),
        SolverResult::Sat(asg) => Err(format!("differ on {:?}: {:#x} vs {:#x}", asg.arrays, evaluate(p, x, &asg), evaluate(p, y, &asg))),
        SolverResult::Unknown(u) => Err(format!("undecided: {u:?}")),
    }
}

#[test]
fn the_solver_agrees_on_random_expressions() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2029);
    let mut proved = 0;
    for case in 0..100 {
        let mut p = ExprPool::new();
        let ins = inputs(&mut p);
        let w = [8, 16][case % 2];
        let e = random_expr(&mut p, &mut rng, &ins, w, 3);
        let path = if case % 2 == 0 { random_path(&mut p, &mut rng, &ins) } else { Vec::new() };
        let mut n = IntNormalizer::for_path(&mut p, &path);
        let ne = n.normalize(&mut p, e);
        // Products of words can exhaust the budget: undecided is no
        // answer, a model is a wrong rule.
        match z3_proves_equal(&mut p, &path, e, ne) {
            Ok(()) => proved += 1,
            Err(why) if why.starts_with("undecided") => {}
            Err(why) => panic!("case {case}: {}\nnormal form: {}\n{why}", print_expr(&p, e), print_expr(&p, ne)),
        }
    }
    assert!(proved >= 80, "only {proved} of 100 decided");
}

/// Sum of squared differences of `n` byte pairs: in C (int, serial) and as
/// SSE2 computes it (16-bit saturating subtract, PMADDWD pairs, lanes).
fn squared_errors(p: &mut ExprPool, n: u32) -> (ExprId, ExprId) {
    let (a, b) = (p.new_array("a", n), p.new_array("b", n));
    let bytes = |p: &mut ExprPool, arr| (0..n).map(|i| p.input_byte(arr, i)).collect::<Vec<_>>();
    let (xa, xb) = (bytes(p, a), bytes(p, b));
    let mut c = p.constant(32, 0);
    for i in 0..n as usize {
        let (x, y) = (p.zext(xa[i], 32), p.zext(xb[i], 32));
        let d = p.sub(x, y);
        let sq = p.mul(d, d);
        c = p.add(c, sq);
    }
    let mut d16 = Vec::new();
    for i in 0..n as usize {
        let (x, y) = (p.zext(xa[i], 16), p.zext(xb[i], 16));
        let (x, y) = (p.sext(x, 17), p.sext(y, 17));
        let r = p.sub(x, y);
        let lo = p.constant(17, (1u128 << 15).wrapping_neg());
        let hi = p.constant(17, (1u128 << 15) - 1);
        let below = p.cmp(CmpOp::Slt, r, lo);
        let above = p.cmp(CmpOp::Slt, hi, r);
        let t = p.ite(above, hi, r);
        let t = p.ite(below, lo, t);
        d16.push(p.trunc(t, 16));
    }
    let mut lanes = Vec::new();
    for pair in d16.chunks(2) {
        let (s0, s1) = (p.sext(pair[0], 32), p.sext(pair[1], 32));
        let (m0, m1) = (p.mul(s0, s0), p.mul(s1, s1));
        lanes.push(p.add(m0, m1));
    }
    while lanes.len() > 1 {
        lanes = lanes.chunks(2).map(|c| if c.len() == 2 { p.add(c[0], c[1]) } else { c[0] }).collect();
    }
    (c, lanes[0])
}

#[test]
fn squared_errors_meet_in_normal_form() {
    let mut p = ExprPool::new();
    let (c, simd) = squared_errors(&mut p, 16);
    let mut n = IntNormalizer::new();
    assert_eq!(n.normalize(&mut p, c), n.normalize(&mut p, simd));
}

/// The sum of squares of a 4x4 byte residual as a C reference sums it
/// (each square sign-extended into a 64-bit accumulator) and as SSE2 does
/// (PMADDWD lanes, a 32-bit tree, the 64-bit result built from the 32-bit
/// sum and copies of its sign): the squares reach 64 bits along different
/// extensions and still meet.
#[test]
fn squared_errors_into_a_64_bit_sum_meet_in_normal_form() {
    let mut p = ExprPool::new();
    let n = 16;
    let (a, b) = (p.new_array("a", n), p.new_array("b", n));
    let bytes = |p: &mut ExprPool, arr| (0..n).map(|i| p.input_byte(arr, i)).collect::<Vec<_>>();
    let (xa, xb) = (bytes(&mut p, a), bytes(&mut p, b));
    let mut c = p.constant(64, 0);
    let mut d16 = Vec::new();
    for i in 0..n as usize {
        let (x, y) = (p.zext(xa[i], 32), p.zext(xb[i], 32));
        let d = p.sub(x, y);
        let r = p.trunc(d, 16);
        d16.push(r);
        let v = p.sext(r, 32);
        let sq = p.mul(v, v);
        let sq = p.sext(sq, 64);
        c = p.add(c, sq);
    }
    let mut lanes = Vec::new();
    for pair in d16.chunks(2) {
        let (s0, s1) = (p.sext(pair[0], 32), p.sext(pair[1], 32));
        let (m0, m1) = (p.mul(s0, s0), p.mul(s1, s1));
        lanes.push(p.add(m0, m1));
    }
    while lanes.len() > 1 {
        lanes = lanes.chunks(2).map(|c| if c.len() == 2 { p.add(c[0], c[1]) } else { c[0] }).collect();
    }
    let wide = p.sext(lanes[0], 64);
    let high = p.extract(wide, 32, 32);
    let simd = p.concat(high, lanes[0]);
    let mut norm = IntNormalizer::new();
    let (nc, ns) = (norm.normalize(&mut p, c), norm.normalize(&mut p, simd));
    assert_eq!(nc, ns, "the sums do not meet:\n{}\n{}", print_expr(&p, nc), print_expr(&p, ns));
}

/// One instance of each rule, proved by the solver and met by both
/// spellings.
#[test]
fn each_rule_is_proved_and_its_spellings_meet() {
    let mut p = ExprPool::new();
    let ins = inputs(&mut p);
    let (a, b) = (ins.bytes[0], ins.bytes[1]);
    let (w0, w1) = (ins.words[0], ins.words[1]);
    let mut pairs: Vec<(&str, ExprId, ExprId, Vec<ExprId>)> = Vec::new();
    // Sums regroup and reorder; constants fold; x - y is x + (-y); ~x is -x - 1.
    {
        let (za, zb) = (p.zext(a, 32), p.zext(b, 32));
        let k = p.constant(32, 5);
        let l = p.add(za, k);
        let l = p.sub(l, zb);
        let nz = p.not(zb);
        let one = p.constant(32, 1);
        let r = p.add(nz, one);
        let r = p.add(r, za);
        let r = p.add(r, k);
        pairs.push(("sums", l, r, vec![]));
    }
    // Products flatten and sort; constant factors move out.
    {
        let (za, zb) = (p.zext(a, 16), p.zext(b, 16));
        let three = p.constant(16, 3);
        let l = p.mul(za, three);
        let l = p.mul(l, zb);
        let r = p.mul(zb, za);
        let r = p.add(r, r);
        let m = p.mul(za, zb);
        let r = p.add(r, m);
        pairs.push(("products", l, r, vec![]));
    }
    // sext32(a16 + b16) = sext32(a16) + sext32(b16) when the narrow sum cannot overflow.
    {
        let (x, y) = (p.sext(a, 16), p.zext(b, 16));
        let s = p.add(x, y);
        let l = p.sext(s, 32);
        let (x32, y32) = (p.sext(a, 32), p.zext(b, 32));
        let r = p.add(x32, y32);
        pairs.push(("extension through a sum", l, r, vec![]));
    }
    // A saturating 16-bit subtract of two bytes never clamps.
    {
        let (x, y) = (p.zext(a, 16), p.zext(b, 16));
        let (x, y) = (p.sext(x, 17), p.sext(y, 17));
        let d = p.sub(x, y);
        let lo = p.constant(17, (1u128 << 15).wrapping_neg());
        let below = p.cmp(CmpOp::Slt, d, lo);
        let t = p.ite(below, lo, d);
        let l = p.trunc(t, 16);
        let (x, y) = (p.zext(a, 16), p.zext(b, 16));
        let r = p.sub(x, y);
        pairs.push(("saturation that never clamps", l, r, vec![]));
    }
    // sext of a value that is never negative is zext.
    {
        let z = p.zext(a, 16);
        let l = p.sext(z, 32);
        let r = p.zext(a, 32);
        pairs.push(("sign extension of a non-negative value", l, r, vec![]));
    }
    // abs in two spellings; min and max with the operands swapped.
    {
        let (x, y) = (p.zext(a, 32), p.zext(b, 32));
        let d = p.sub(x, y);
        let zero = p.constant(32, 0);
        let neg = p.sub(zero, d);
        let lt = p.cmp(CmpOp::Slt, d, zero);
        let l = p.ite(lt, neg, d);
        let gt = p.cmp(CmpOp::Slt, zero, d);
        let r = p.ite(gt, d, neg);
        pairs.push(("abs", l, r, vec![]));
        // PMAXSW(x, 0 - x) on 16-bit differences of bytes, widened, is the
        // 32-bit abs of the difference.
        let d16 = p.zext(a, 16);
        let e16 = p.zext(b, 16);
        let d16 = p.sub(d16, e16);
        let zero16 = p.constant(16, 0);
        let neg16 = p.sub(zero16, d16);
        let lt16 = p.cmp(CmpOp::Slt, d16, neg16);
        let max16 = p.ite(lt16, neg16, d16);
        let wide = p.sext(max16, 32);
        pairs.push(("abs as max(x, -x), widened", wide, l, vec![]));
        // On full words, the minimum included: max(x, -x) is abs(x) and
        // min(x, -x) is -abs(x).
        let negw = p.sub(zero16, w0);
        let lt = p.cmp(CmpOp::Slt, w0, negw);
        let max = p.ite(lt, negw, w0);
        let below = p.cmp(CmpOp::Slt, w0, zero16);
        let abs = p.ite(below, negw, w0);
        pairs.push(("abs as max(x, -x)", max, abs, vec![]));
        let min = p.ite(lt, w0, negw);
        let minus_abs = p.sub(zero16, abs);
        pairs.push(("-abs as min(x, -x)", min, minus_abs, vec![]));
        let (sw0, sw1) = (p.sext(w0, 32), p.sext(w1, 32));
        let le = p.cmp(CmpOp::Sle, sw0, sw1);
        let l = p.ite(le, sw0, sw1);
        let gt = p.cmp(CmpOp::Slt, sw1, sw0);
        let r = p.ite(gt, sw1, sw0);
        pairs.push(("min", l, r, vec![]));
        let lt = p.cmp(CmpOp::Ult, w0, w1);
        let l = p.ite(lt, w1, w0);
        let ge = p.cmp(CmpOp::Ule, w1, w0);
        let r = p.ite(ge, w0, w1);
        pairs.push(("max", l, r, vec![]));
    }
    // Under a path bounding two words to 12 bits: a 16-bit and a 32-bit
    // sum shifted right by 2 meet (high bits read from the bits that hold
    // the value), and x >> 1 in 16 and in 32 bits too.
    {
        let mut path = Vec::new();
        for w in [w0, w1] {
            let x = p.sext(w, 32);
            let lo = p.constant(32, (-2048i128) as u128);
            let hi = p.constant(32, 2047);
            let ge = p.cmp(CmpOp::Sle, lo, x);
            let le = p.cmp(CmpOp::Sle, x, hi);
            path.push(p.and(ge, le));
        }
        let s16 = p.add(w0, w1);
        let two16 = p.constant(16, 2);
        let l = p.bin(BinOp::AShr, s16, two16);
        let l = p.sext(l, 32);
        let (x, y) = (p.sext(w0, 32), p.sext(w1, 32));
        let s32 = p.add(x, y);
        let two = p.constant(32, 2);
        let r = p.bin(BinOp::AShr, s32, two);
        pairs.push(("high bits of a bounded sum", l, r, path.clone()));
        // A difference: its -1 coefficient is large only read unsigned,
        // and the sum stays whole for the narrowing to meet the 16-bit one.
        let d16 = p.sub(w0, w1);
        let l = p.bin(BinOp::AShr, d16, two16);
        let l = p.sext(l, 32);
        let d32 = p.sub(x, y);
        let r = p.bin(BinOp::AShr, d32, two);
        pairs.push(("high bits of a bounded difference", l, r, path.clone()));
        let one = p.constant(16, 1);
        let l = p.bin(BinOp::AShr, w0, one);
        let l = p.sext(l, 32);
        let one = p.constant(32, 1);
        let r = p.bin(BinOp::AShr, x, one);
        pairs.push(("a bounded word halved", l, r, path));
    }
    // |x - y| of two bytes as SIMD code writes it, the OR of two
    // saturating differences (PSUBUSB both ways, POR), is abs of the 9-bit
    // difference cut to 8 bits: either order of the OR, and of x and y,
    // meets, widened to 16 bits as the lanes are.
    {
        let sat = |p: &mut ExprPool, x: ExprId, y: ExprId| {
            let lt = p.cmp(CmpOp::Ult, x, y);
            let zero = p.constant(8, 0);
            let d = p.sub(x, y);
            p.ite(lt, zero, d)
        };
        let (xy, yx) = (sat(&mut p, a, b), sat(&mut p, b, a));
        let l = p.bin(BinOp::Or, xy, yx);
        let l = p.zext(l, 16);
        let r = p.bin(BinOp::Or, yx, xy);
        let r = p.zext(r, 16);
        pairs.push(("absolute difference of bytes", l, r, vec![]));
    }
    // A 32-bit abs of a byte difference is taken on 9 bits and widened,
    // and so meets the PSUBUSB/POR absolute difference widened to a lane
    // and then to 32 bits (the two sides of a "select" predictor).
    {
        let (x, y) = (p.zext(a, 32), p.zext(b, 32));
        let d = p.sub(x, y);
        let zero = p.constant(32, 0);
        let neg = p.sub(zero, d);
        let lt = p.cmp(CmpOp::Slt, d, zero);
        let l = p.ite(lt, neg, d);
        let sat = |p: &mut ExprPool, x: ExprId, y: ExprId| {
            let lt = p.cmp(CmpOp::Ult, x, y);
            let zero = p.constant(8, 0);
            let d = p.sub(x, y);
            p.ite(lt, zero, d)
        };
        let (ab, ba) = (sat(&mut p, a, b), sat(&mut p, b, a));
        let r = p.bin(BinOp::Or, ab, ba);
        let r = p.zext(r, 16);
        let r = p.sext(r, 32);
        pairs.push(("abs on the fewest bits", l, r, vec![]));
    }
    // A mask keeping a lane's high byte is that byte shifted into place.
    {
        let m = p.constant(16, 0xff00);
        let l = p.and(w0, m);
        let eight = p.constant(16, 8);
        let r = p.bin(BinOp::LShr, w0, eight);
        let r = p.bin(BinOp::Shl, r, eight);
        pairs.push(("mask of a high byte", l, r, vec![]));
    }
    // `(int16_t)(x << 8)` widened is 256 * sext(x).
    {
        let z = p.zext(a, 16);
        let eight = p.constant(16, 8);
        let l = p.bin(BinOp::Shl, z, eight);
        let l = p.sext(l, 32);
        let sa = p.sext(a, 32);
        let k = p.constant(32, 256);
        let r = p.mul(sa, k);
        pairs.push(("extension of a shifted byte", l, r, vec![]));
    }
    // The high half of a 16-bit product of `x << 8` and `y << 3`
    // (PMULHW) is bits 5.. of the plain product of x and y, as
    // `(x * y) >> 5` reads them.
    {
        let (sa, sb) = (p.sext(a, 16), p.sext(b, 16));
        let (eight, three) = (p.constant(16, 8), p.constant(16, 3));
        let (xa, yb) = (p.bin(BinOp::Shl, sa, eight), p.bin(BinOp::Shl, sb, three));
        let (xa, yb) = (p.sext(xa, 32), p.sext(yb, 32));
        let prod = p.mul(xa, yb);
        let l = p.extract(prod, 16, 16);
        let (sa, sb) = (p.sext(a, 32), p.sext(b, 32));
        let prod = p.mul(sa, sb);
        let five = p.constant(32, 5);
        let r = p.bin(BinOp::AShr, prod, five);
        let r = p.trunc(r, 16);
        pairs.push(("high half of a product of shifted values", l, r, vec![]));
    }
    // A 16-bit lane rebuilt from a sign-extended high field and the low
    // byte below it is the sign extension of the joined field; a high
    // half of copies of a value's sign over its extension is the wider
    // extension (lanes reassembled after a store of their bytes).
    {
        let top = p.extract(w0, 12, 4);
        let top = p.sext(top, 8);
        let low = p.extract(w0, 4, 8);
        let l = p.concat(top, low);
        let field = p.extract(w0, 4, 12);
        let r = p.sext(field, 16);
        pairs.push(("a lane rebuilt from its bytes", l, r, vec![]));
        let f = p.trunc(w1, 12);
        let sign = p.extract(f, 11, 1);
        let high = p.sext(sign, 16);
        let low = p.sext(f, 16);
        let l = p.concat(high, low);
        let r = p.sext(f, 32);
        pairs.push(("a high half of sign copies", l, r, vec![]));
    }
    // `(x * 85627) >> 16` on int is the PMULHW of x by 20091 plus x, and
    // `(y * 35468) >> 16` the PMULHW by 35468 - 2^16 plus y: here the
    // same rule one size down (bytes, 16-bit products, the high byte), so
    // that the solver's proof stays small.
    {
        let x = p.sext(a, 16);
        for (k, k8) in [(256u128 + 37, 37u128), (200, (200i128 - 256) as u128 & 0xff)] {
            let big = p.constant(16, k);
            let prod = p.mul(x, big);
            let eight = p.constant(16, 8);
            let l = p.bin(BinOp::AShr, prod, eight);
            let l = p.trunc(l, 8);
            let small = p.constant(8, k8);
            let small = p.sext(small, 16);
            let prod = p.mul(x, small);
            let hi = p.extract(prod, 8, 8);
            let r = p.add(hi, a);
            pairs.push(("high half of a product by a constant over 2^8", l, r, vec![]));
        }
    }
    // A clamp of a 32-bit value to a byte written with a mask test,
    // `(v & ~0xff) == 0 ? v : (v < 0 ? 0 : 255)`, and with two comparisons.
    {
        let (x, y) = (p.sext(w0, 32), p.zext(a, 32));
        let v = p.add(x, y);
        let high = p.constant(32, 0xffff_ff00);
        let masked = p.and(v, high);
        let zero = p.constant(32, 0);
        let inside = p.eq(masked, zero);
        let negative = p.cmp(CmpOp::Slt, v, zero);
        let top = p.constant(32, 255);
        let outside = p.ite(negative, zero, top);
        let l = p.ite(inside, v, outside);
        let above = p.cmp(CmpOp::Slt, top, v);
        let upper = p.ite(above, top, v);
        let r = p.ite(negative, zero, upper);
        pairs.push(("a clamp to a byte written with a mask test", l, r, vec![]));
    }
    // The low byte of min(v, 255) selected in either order, compared on
    // 16 bits (a saturating pack's clamp against a clamp cut afterwards).
    {
        let v = p.add(w0, w1);
        let top16 = p.constant(16, 255);
        let (low, top8) = (p.trunc(v, 8), p.constant(8, 255));
        let below = p.cmp(CmpOp::Slt, v, top16);
        let l = p.ite(below, low, top8);
        let above = p.cmp(CmpOp::Slt, top16, v);
        let r = p.ite(above, top8, low);
        pairs.push(("the low byte of a minimum, compared on wider values", l, r, vec![]));
    }
    // `a != 0` widened against PCMPEQW's -1 plus one.
    {
        let zero = p.constant(16, 0);
        let is_zero = p.eq(w0, zero);
        let nonzero = p.not(is_zero);
        let l = p.zext(nonzero, 16);
        let minus = p.sext(is_zero, 16);
        let one = p.constant(16, 1);
        let r = p.add(minus, one);
        pairs.push(("a condition widened, zero- or sign-extended", l, r, vec![]));
    }
    // A 16-bit value rebuilt from its sign copied above it and itself.
    {
        let v = p.add(w0, w1);
        let sign = p.extract(v, 15, 1);
        let copies = p.sext(sign, 16);
        let l = p.concat(copies, v);
        let r = p.sext(v, 32);
        pairs.push(("a value under copies of its sign", l, r, vec![]));
    }
    // A byte difference cut to its 9 bits and sign-extended is the
    // difference at the new width.
    {
        let (za, zb) = (p.zext(a, 32), p.zext(b, 32));
        let d = p.sub(za, zb);
        let low = p.trunc(d, 9);
        let l = p.sext(low, 64);
        let (xa, xb) = (p.zext(a, 64), p.zext(b, 64));
        let r = p.sub(xa, xb);
        pairs.push(("a difference cut to the bits that hold it, sign-extended", l, r, vec![]));
    }
    // `x <= c` is `x < c + 1` and `c <= x` is `c - 1 < x`, signed or not.
    {
        let six = p.constant(16, 6);
        let seven = p.constant(16, 7);
        let l = p.cmp(CmpOp::Sle, seven, w0);
        let r = p.cmp(CmpOp::Slt, six, w0);
        pairs.push(("a signed bound, non-strict against strict", l, r, vec![]));
        let l = p.cmp(CmpOp::Ule, w1, six);
        let r = p.cmp(CmpOp::Ult, w1, seven);
        pairs.push(("an unsigned bound, non-strict against strict", l, r, vec![]));
    }
    // A minimum seeded above every operand, a maximum seeded below every
    // operand: the operand itself (the C reference's `*min = 255`).
    {
        let x = p.zext(a, 32);
        let top = p.constant(32, 255);
        let below = p.cmp(CmpOp::Slt, x, top);
        let l = p.ite(below, x, top);
        pairs.push(("a minimum with a bound of its operand", l, x, vec![]));
        let zero = p.constant(32, 0);
        let above = p.cmp(CmpOp::Slt, zero, x);
        let l = p.ite(above, x, zero);
        pairs.push(("a maximum with a bound of its operand", l, x, vec![]));
    }
    // A clamp written `x <= 255 ? x : 255` meets `x < 255 ? x : 255`:
    // the first reaches the min shape strict, as `x < 256`, and is read
    // back non-strict against 255 (pixman's saturating add against
    // _mm_adds_epu8 stopped meeting when comparisons became strict).
    {
        let top = p.constant(16, 255);
        let at_most = p.cmp(CmpOp::Ule, w0, top);
        let l = p.ite(at_most, w0, top);
        let below = p.cmp(CmpOp::Ult, w0, top);
        let r = p.ite(below, w0, top);
        pairs.push(("an unsigned clamp, non-strict against strict", l, r, vec![]));
        let floor = p.constant(16, 0xff80);
        let at_least = p.cmp(CmpOp::Sle, floor, w1);
        let l = p.ite(at_least, w1, floor);
        let above = p.cmp(CmpOp::Slt, floor, w1);
        let r = p.ite(above, w1, floor);
        pairs.push(("a signed clamp from below, non-strict against strict", l, r, vec![]));
    }
    // A square divided by 16, signed, is its bits 4.. (a square is never
    // negative); an unsigned division by 8 is bits 3.. always.
    {
        let s = p.sext(w0, 64);
        let sq = p.mul(s, s);
        let sixteen = p.constant(64, 16);
        let l = p.bin(BinOp::SDiv, sq, sixteen);
        let field = p.extract(sq, 4, 60);
        let r = p.zext(field, 64);
        pairs.push(("a square divided by a power of two", l, r, vec![]));
        let eight = p.constant(16, 8);
        let l = p.bin(BinOp::UDiv, w1, eight);
        let field = p.extract(w1, 3, 13);
        let r = p.zext(field, 16);
        pairs.push(("an unsigned division by a power of two", l, r, vec![]));
    }
    // min and max are associative, commutative and idempotent, and a
    // selection among values that fit fewer bits is that selection on
    // those bits, widened: nested either way, written with the operands
    // either way round, at 16 or 32 bits, they meet.
    {
        let c = ins.bytes[2];
        let min = |p: &mut ExprPool, op, x, y| {
            let lt = p.cmp(op, x, y);
            p.ite(lt, x, y)
        };
        let max = |p: &mut ExprPool, op, x, y| {
            let lt = p.cmp(op, x, y);
            p.ite(lt, y, x)
        };
        let (za, zb, zc) = (p.zext(a, 32), p.zext(b, 32), p.zext(c, 32));
        let ab = min(&mut p, CmpOp::Slt, za, zb);
        let l = min(&mut p, CmpOp::Slt, ab, zc);
        let (ya, yb, yc) = (p.zext(a, 16), p.zext(b, 16), p.zext(c, 16));
        let cb = min(&mut p, CmpOp::Ult, yc, yb);
        let gt = p.cmp(CmpOp::Ult, cb, ya);
        let r = p.ite(gt, cb, ya);
        let r = p.zext(r, 32);
        pairs.push(("a minimum of three nested two ways at two widths", l, r, vec![]));
        let l = max(&mut p, CmpOp::Slt, za, zb);
        let l = max(&mut p, CmpOp::Slt, za, l);
        let r = max(&mut p, CmpOp::Ult, yb, ya);
        let r = p.zext(r, 32);
        pairs.push(("a maximum taking an operand twice", l, r, vec![]));
        let aa = min(&mut p, CmpOp::Ult, za, za);
        let l = min(&mut p, CmpOp::Ult, aa, ab);
        pairs.push(("a minimum taking an operand twice", l, ab, vec![]));
        // Words that may be negative: compared signed on their 16 bits.
        let (s0, s1) = (p.sext(w0, 32), p.sext(w1, 32));
        let l = min(&mut p, CmpOp::Slt, s0, s1);
        let r = min(&mut p, CmpOp::Slt, w1, w0);
        let r = p.sext(r, 32);
        pairs.push(("a signed minimum of words at two widths", l, r, vec![]));
        let l = max(&mut p, CmpOp::Slt, s0, s1);
        let r = max(&mut p, CmpOp::Slt, w1, w0);
        let r = p.sext(r, 32);
        pairs.push(("a signed maximum of words at two widths", l, r, vec![]));
    }
    // |x - y| written by a comparison (a SAD instruction's byte absolute
    // difference, `x <u y ? y - x : x - y`) against C's abs of the
    // difference of the widened bytes; and of words compared signed,
    // whose 16-bit sides wrap and still equal the magnitude's low bits.
    {
        let (x, y) = (p.zext(a, 16), p.zext(b, 16));
        let lt = p.cmp(CmpOp::Ult, x, y);
        let (yx, xy) = (p.sub(y, x), p.sub(x, y));
        let l = p.ite(lt, yx, xy);
        let l = p.zext(l, 32);
        let (x32, y32) = (p.zext(a, 32), p.zext(b, 32));
        let d = p.sub(x32, y32);
        let zero = p.constant(32, 0);
        let neg = p.sub(zero, d);
        let negative = p.cmp(CmpOp::Slt, d, zero);
        let r = p.ite(negative, neg, d);
        pairs.push(("a byte absolute difference by comparison", l, r, vec![]));
        let lt = p.cmp(CmpOp::Slt, w0, w1);
        let (d10, d01) = (p.sub(w1, w0), p.sub(w0, w1));
        let l = p.ite(lt, d10, d01);
        let (s0, s1) = (p.sext(w0, 32), p.sext(w1, 32));
        let d = p.sub(s0, s1);
        let neg = p.sub(zero, d);
        let negative = p.cmp(CmpOp::Slt, d, zero);
        let r = p.ite(negative, neg, d);
        let r = p.trunc(r, 16);
        pairs.push(("a word absolute difference by comparison, wrapping", l, r, vec![]));
    }
    // A clamp to a byte nested either way: C's `clip_pixel(dest + trans)`
    // on 32 bits with the upper test outside, its byte taken afterwards,
    // against a saturating pack of the 16-bit sum, lower test outside
    // (libvpx's inverse DCT added to a prediction). Equal on every input
    // only because the 16-bit sum cannot wrap: `trans` is bounded.
    {
        let x = p.sext(w0, 32);
        let (lo, hi) = (p.constant(32, (-2048i128) as u128), p.constant(32, 2047));
        let (ge, le) = (p.cmp(CmpOp::Sle, lo, x), p.cmp(CmpOp::Sle, x, hi));
        let bounded = vec![p.and(ge, le)];
        let (top8, zero8) = (p.constant(8, 255), p.constant(8, 0));
        let v32 = p.zext(a, 32);
        let v32 = p.add(v32, x);
        let (top32, zero32) = (p.constant(32, 255), p.constant(32, 0));
        let above = p.cmp(CmpOp::Slt, top32, v32);
        let negative = p.cmp(CmpOp::Slt, v32, zero32);
        let low = p.trunc(v32, 8);
        let raised = p.ite(negative, zero8, low);
        let l = p.ite(above, top8, raised);
        let v16 = p.zext(a, 16);
        let v16 = p.add(v16, w0);
        let (top16, zero16) = (p.constant(16, 255), p.constant(16, 0));
        let above = p.cmp(CmpOp::Slt, top16, v16);
        let negative = p.cmp(CmpOp::Slt, v16, zero16);
        let low = p.trunc(v16, 8);
        let lowered = p.ite(above, top8, low);
        let r = p.ite(negative, zero8, lowered);
        pairs.push(("a clamp to a byte nested either way, compared on wider values", l, r, bounded));
    }
    // Nested rounding shifts as one: C's 64-bit `ROUND_POWER_OF_TWO(x *
    // cospi_16_64, 14)` cut to 32 bits, then `(out + 1) >> 2`, against
    // SSE2's `(x * cospi_16_64 + 2^13 + 2^14) >> 16` on 32-bit lanes
    // (libvpx's vpx_fdct4x4): floor((floor(u / 2^14) + 1) / 4) =
    // floor((u + 2^14) / 2^16) for integers.
    {
        let cospi = p.constant(64, 11585);
        let x64 = p.sext(w0, 64);
        let u = p.mul(x64, cospi);
        let rounding = p.constant(64, 1 << 13);
        let u = p.add(u, rounding);
        let out = p.extract(u, 14, 32);
        let one = p.constant(32, 1);
        let out = p.add(out, one);
        let l = p.extract(out, 2, 30);
        let l = p.sext(l, 32);
        let cospi = p.constant(32, 11585);
        let x32 = p.sext(w0, 32);
        let v = p.mul(x32, cospi);
        let rounding = p.constant(32, 0x6000);
        let v = p.add(v, rounding);
        let r = p.extract(v, 16, 16);
        let r = p.sext(r, 32);
        pairs.push(("nested rounding shifts as one", l, r, vec![]));
    }
    // A 16-bit lane widened by unpacking it with its sign mask `x < 0`
    // (PCMPGTW against zero) is its sign extension.
    {
        let zero = p.constant(16, 0);
        let negative = p.cmp(CmpOp::Slt, w0, zero);
        let mask16 = p.sext(negative, 16);
        let l = p.concat(mask16, w0);
        let r = p.sext(w0, 32);
        pairs.push(("sign copies by comparison", l, r, vec![]));
    }
    // C's `if (x) ++x` against SSE2's `x + (x == 0 ? -1 : 0) + 1` (a
    // compare mask added): sides a constant apart are one sum, and a
    // multiple of 16 never equals 1 (the mask of the other lanes).
    {
        let x = p.sext(w0, 32);
        let sixteen = p.constant(32, 16);
        let x = p.mul(x, sixteen);
        let (zero, one) = (p.constant(32, 0), p.constant(32, 1));
        let is_zero = p.cmp(CmpOp::Eq, x, zero);
        let bumped = p.add(x, one);
        let l = p.ite(is_zero, x, bumped);
        let mask = p.sext(is_zero, 32);
        let r = p.add(x, mask);
        let r = p.add(r, one);
        pairs.push(("a select of sides a constant apart", l, r, vec![]));
        let is_one = p.cmp(CmpOp::Eq, x, one);
        let never = p.bool_const(false);
        pairs.push(("a multiple of 16 is never 1", is_one, never, vec![]));
    }
    for (name, l, r, path) in pairs {
        let mut n = IntNormalizer::for_path(&mut p, &path).with_nested_rounding();
        let (nl, nr) = (n.normalize(&mut p, l), n.normalize(&mut p, r));
        for (side, e, ne) in [("left", l, nl), ("right", r, nr)] {
            if let Err(why) = z3_proves_equal(&mut p, &path, e, ne) {
                panic!("{name}, {side}: {} is not {}: {why}", print_expr(&p, e), print_expr(&p, ne));
            }
        }
        assert_eq!(nl, nr, "{name}: the spellings do not meet:\n{}\n{}", print_expr(&p, nl), print_expr(&p, nr));
    }
}

/// Without the path's bounds a 16-bit sum can wrap: no rewrite may
/// assume it does not, so the two sums stay apart (and the solver shows
/// they differ).
#[test]
fn unbounded_sums_are_not_merged() {
    let mut p = ExprPool::new();
    let ins = inputs(&mut p);
    let (w0, w1) = (ins.words[0], ins.words[1]);
    let s16 = p.add(w0, w1);
    let l = p.sext(s16, 32);
    let (x, y) = (p.sext(w0, 32), p.sext(w1, 32));
    let r = p.add(x, y);
    let mut n = IntNormalizer::new();
    let (nl, nr) = (n.normalize(&mut p, l), n.normalize(&mut p, r));
    assert_ne!(nl, nr);
    assert!(z3_proves_equal(&mut p, &[], nl, nr).is_err());
}

/// The least and greatest absolute difference of two blocks of `rows` x
/// `lanes` bytes as a C reference computes them (int, a serial chain
/// seeded with 255 and 0, `d < min ? d : min`, `d > max ? d : max`) and as
/// SSE2 does (16-bit lanes: saturating differences, PMAXSW(d, 0 - d), a
/// PMINSW/PMAXSW per row, then a reduction tree across the lanes, the
/// result widened from lane 0).
fn absolute_difference_extremes(p: &mut ExprPool, rows: u32, lanes: u32) -> [(ExprId, ExprId); 2] {
    let n = rows * lanes;
    let (s, d) = (p.new_array("s", n), p.new_array("d", n));
    let bytes = |p: &mut ExprPool, arr| (0..n).map(|i| p.input_byte(arr, i)).collect::<Vec<_>>();
    let (xs, xd) = (bytes(p, s), bytes(p, d));
    let mut c_min = p.constant(32, 255);
    let mut c_max = p.constant(32, 0);
    for i in 0..n as usize {
        let (x, y) = (p.zext(xs[i], 32), p.zext(xd[i], 32));
        let diff = p.sub(x, y);
        let zero = p.constant(32, 0);
        let neg = p.sub(zero, diff);
        let negative = p.cmp(CmpOp::Slt, diff, zero);
        let abs = p.ite(negative, neg, diff);
        let less = p.cmp(CmpOp::Slt, abs, c_min);
        c_min = p.ite(less, abs, c_min);
        let more = p.cmp(CmpOp::Slt, c_max, abs);
        c_max = p.ite(more, abs, c_max);
    }
    let saturating_sub = |p: &mut ExprPool, a: ExprId, b: ExprId| {
        let (x, y) = (p.sext(a, 17), p.sext(b, 17));
        let r = p.sub(x, y);
        let lo = p.constant(17, (1u128 << 15).wrapping_neg());
        let hi = p.constant(17, (1u128 << 15) - 1);
        let below = p.cmp(CmpOp::Slt, r, lo);
        let above = p.cmp(CmpOp::Slt, hi, r);
        let t = p.ite(above, hi, r);
        let t = p.ite(below, lo, t);
        p.trunc(t, 16)
    };
    // As the intrinsics lower llvm.smin/smax: a < b ? a : b, a < b ? b : a.
    let smin = |p: &mut ExprPool, a: ExprId, b: ExprId| {
        let lt = p.cmp(CmpOp::Slt, a, b);
        p.ite(lt, a, b)
    };
    let smax = |p: &mut ExprPool, a: ExprId, b: ExprId| {
        let lt = p.cmp(CmpOp::Slt, a, b);
        p.ite(lt, b, a)
    };
    let mut lane_min: Vec<ExprId> = Vec::new();
    let mut lane_max: Vec<ExprId> = Vec::new();
    for r in 0..rows as usize {
        for l in 0..lanes as usize {
            let i = r * lanes as usize + l;
            let (x, y) = (p.zext(xs[i], 16), p.zext(xd[i], 16));
            let diff = saturating_sub(p, x, y);
            let zero = p.constant(16, 0);
            let neg = saturating_sub(p, zero, diff);
            let abs = smax(p, diff, neg);
            if r == 0 {
                lane_min.push(abs);
                lane_max.push(abs);
            } else {
                lane_min[l] = smin(p, lane_min[l], abs);
                lane_max[l] = smax(p, lane_max[l], abs);
            }
        }
    }
    // The reduction across lanes: lane i against lane i + half.
    let mut half = lanes as usize / 2;
    while half >= 1 {
        for l in 0..half {
            lane_min[l] = smin(p, lane_min[l], lane_min[l + half]);
            lane_max[l] = smax(p, lane_max[l], lane_max[l + half]);
        }
        half /= 2;
    }
    let (simd_min, simd_max) = (p.zext(lane_min[0], 32), p.zext(lane_max[0], 32));
    [(c_min, simd_min), (c_max, simd_max)]
}

/// vpx_minmax_8x8's two spellings: the C chain of 64 and the SSE2 lanes'
/// rows and reduction tree meet in the n-ary min/max normal form.
#[test]
fn absolute_difference_extremes_meet_in_normal_form() {
    let mut p = ExprPool::new();
    let pairs = absolute_difference_extremes(&mut p, 8, 8);
    let mut n = IntNormalizer::new();
    for (which, (c, simd)) in ["min", "max"].iter().zip(pairs) {
        let (nc, ns) = (n.normalize(&mut p, c), n.normalize(&mut p, simd));
        assert_eq!(nc, ns, "{which}: the chains do not meet:\n{}\n{}", print_expr(&p, nc), print_expr(&p, ns));
    }
    // A smaller instance, each side proved equal to its normal form.
    let mut p = ExprPool::new();
    let pairs = absolute_difference_extremes(&mut p, 2, 4);
    let mut n = IntNormalizer::new();
    for (c, simd) in pairs {
        for e in [c, simd] {
            let ne = n.normalize(&mut p, e);
            z3_proves_equal(&mut p, &[], e, ne).unwrap_or_else(|why| panic!("{} is not {}: {why}", print_expr(&p, e), print_expr(&p, ne)));
        }
    }
}

/// Selections that differ stay apart: the minimum of three bytes is not
/// the minimum of two of them, nor a maximum, nor a minimum read signed
/// where the operands may be negative (the solver shows each differs).
#[test]
fn different_selections_do_not_meet() {
    let mut p = ExprPool::new();
    let ins = inputs(&mut p);
    let (a, b, c) = (ins.bytes[0], ins.bytes[1], ins.bytes[2]);
    let min = |p: &mut ExprPool, op, x, y| {
        let lt = p.cmp(op, x, y);
        p.ite(lt, x, y)
    };
    let max = |p: &mut ExprPool, op, x, y| {
        let lt = p.cmp(op, x, y);
        p.ite(lt, y, x)
    };
    let (za, zb, zc) = (p.zext(a, 16), p.zext(b, 16), p.zext(c, 16));
    let ab = min(&mut p, CmpOp::Ult, za, zb);
    let abc = min(&mut p, CmpOp::Ult, ab, zc);
    let max_ab = max(&mut p, CmpOp::Ult, za, zb);
    // Bytes read signed: 0x80.. are negative, so the signed minimum of
    // the bytes is not the unsigned one.
    let signed_ab = min(&mut p, CmpOp::Slt, a, b);
    let unsigned_ab = min(&mut p, CmpOp::Ult, a, b);
    // |a - b| of bytes read unsigned against read signed.
    let magnitude = |p: &mut ExprPool, op, x, y| {
        let lt = p.cmp(op, x, y);
        let (yx, xy) = (p.sub(y, x), p.sub(x, y));
        p.ite(lt, yx, xy)
    };
    let unsigned_distance = magnitude(&mut p, CmpOp::Ult, a, b);
    let signed_distance = magnitude(&mut p, CmpOp::Slt, a, b);
    // A clamp whose bounds cross (lo > hi) is not its other nesting:
    // max(min(v, 16), 235) is 235, min(max(v, 235), 16) is 16.
    let v = p.zext(a, 16);
    let (k16, k235) = (p.constant(16, 16), p.constant(16, 235));
    let lowered = min(&mut p, CmpOp::Slt, v, k16);
    let crossed = max(&mut p, CmpOp::Slt, lowered, k235);
    let raised = max(&mut p, CmpOp::Slt, v, k235);
    let other_nesting = min(&mut p, CmpOp::Slt, raised, k16);
    // The same with byte sides, as C's clip_pixel cut to a byte is: the
    // tests may hold together (16 < v < 235), so the nesting matters.
    let (k8_16, k8_235) = (p.constant(8, 16), p.constant(8, 235));
    let low = p.trunc(v, 8);
    let above = p.cmp(CmpOp::Slt, k16, v);
    let below = p.cmp(CmpOp::Slt, v, k235);
    let raised = p.ite(below, k8_235, low);
    let upper_outside = p.ite(above, k8_16, raised);
    let lowered = p.ite(above, k8_16, low);
    let lower_outside = p.ite(below, k8_235, lowered);
    // A rounded field that does not hold every bit of its value (bits
    // 14..29 of a product that needs 32 bits signed) is not a quotient:
    // shifting it again is not one shift of the whole product (they
    // differ where the product reaches 2^29).
    let (sw0, sw1) = (p.sext(ins.words[0], 64), p.sext(ins.words[1], 64));
    let wide = p.mul(sw0, sw1);
    let field = p.extract(wide, 14, 16);
    let field = p.sext(field, 32);
    let one = p.constant(32, 1);
    let bumped = p.add(field, one);
    let cut_twice = p.extract(bumped, 2, 30);
    let cut_twice = p.sext(cut_twice, 32);
    let k = p.constant(64, 1 << 14);
    let whole = p.add(wide, k);
    let once = p.extract(whole, 16, 30);
    let once = p.sext(once, 32);
    let cases = [
        ("crossed clamp bounds", crossed, other_nesting),
        ("a rounded field too narrow for its value, shifted again", cut_twice, once),
        ("crossed byte clamp bounds", upper_outside, lower_outside),
        ("min of three against min of two", abc, ab),
        ("min against max", ab, max_ab),
        ("signed against unsigned", signed_ab, unsigned_ab),
        ("distance read signed against unsigned", signed_distance, unsigned_distance),
    ];
    let mut n = IntNormalizer::new().with_nested_rounding();
    for (name, l, r) in cases {
        let (nl, nr) = (n.normalize(&mut p, l), n.normalize(&mut p, r));
        assert_ne!(nl, nr, "{name}: met");
        assert!(z3_proves_equal(&mut p, &[], l, r).is_err_and(|why| why.starts_with("differ")), "{name}: not shown to differ");
    }
}

/// The bit operations of values that fit k bits signed fit k bits signed:
/// C's conditional negation `(x ^ s) - s`, `s = x >> 31`, of a 16-bit
/// value cannot overflow (libvpx's quantizer computes `abs_coeff` so; the
/// undecided overflow's poison reached its output buffer and was reported
/// as uninitialised). The solver agrees that no value leaves the range.
#[test]
fn bit_operations_of_narrow_signed_values_stay_narrow() {
    let mut p = ExprPool::new();
    let ins = inputs(&mut p);
    let (x, y) = (p.sext(ins.words[0], 32), p.sext(ins.bytes[1], 32));
    let k = p.constant(32, 31);
    let s = p.bin(BinOp::AShr, x, k);
    let mut n = IntNormalizer::new();
    for (op, a, b, bits) in [(BinOp::Xor, x, s, 16), (BinOp::And, x, y, 16), (BinOp::Or, y, s, 16), (BinOp::Xor, y, s, 16)] {
        let e = p.bin(op, a, b);
        let r = n.range(&p, e);
        let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
        assert!(r.signed.lo >= lo && r.signed.hi <= hi, "{op:?}: {:?}", r.signed);
        let (l, h) = (p.constant(32, lo as u128), p.constant(32, hi as u128));
        let below = p.cmp(CmpOp::Slt, e, l);
        let above = p.cmp(CmpOp::Slt, h, e);
        let outside = p.or(below, above);
        let q = Query::new(vec![], Some(outside)).with_resource_limit(20_000_000);
        assert!(matches!(Z3Solver::new().check(&p, &q), SolverResult::Unsat), "{op:?}: a value outside");
    }
    // The conditional negation itself: within 16 bits plus one.
    let flipped = p.xor(x, s);
    let magnitude = p.sub(flipped, s);
    let r = n.range(&p, magnitude);
    assert!(r.signed.lo >= -32768 && r.signed.hi <= 32768, "{:?}", r.signed);
}

/// The range of a middle field that holds every bit of its value above
/// the offset is the value shifted (C's 64-bit rounding shift cut to 32
/// bits), and a 32-bit value widened to 64 by its halves (its sign's
/// copies on top) keeps its range: together they settle the overflow test
/// of `output + 1` in libvpx's vpx_fdct4x4_c. The solver agrees that no
/// value leaves either range.
#[test]
fn rounded_fields_and_widened_halves_keep_their_ranges() {
    let mut p = ExprPool::new();
    let ins = inputs(&mut p);
    let x64 = p.sext(ins.words[0], 64);
    let cospi = p.constant(64, 11585);
    let u = p.mul(x64, cospi);
    let rounding = p.constant(64, 1 << 13);
    let u = p.add(u, rounding);
    let out = p.extract(u, 14, 32);
    let x32 = p.sext(ins.words[1], 32);
    let sixteen = p.constant(32, 16);
    let x32 = p.mul(x32, sixteen);
    let wide = p.sext(x32, 64);
    let top = p.extract(wide, 32, 32);
    let halves = p.concat(top, x32);
    let mut n = IntNormalizer::new();
    // floor((-32768 * 11585 + 8192) / 2^14) and floor((32767 * 11585 + 8192) / 2^14).
    for (e, lo, hi) in [(out, -23170i128, 23170i128), (halves, -524288, 524272)] {
        let r = n.range(&p, e);
        assert!(r.signed.lo >= lo && r.signed.hi <= hi, "{:?}", r.signed);
        let w = p.width(e);
        let (l, h) = (p.constant(w, lo as u128 & ((1u128 << w) - 1)), p.constant(w, hi as u128));
        let below = p.cmp(CmpOp::Slt, e, l);
        let above = p.cmp(CmpOp::Slt, h, e);
        let outside = p.or(below, above);
        let q = Query::new(vec![], Some(outside)).with_resource_limit(20_000_000);
        assert!(matches!(Z3Solver::new().check(&p, &q), SolverResult::Unsat), "a value outside {lo}..{hi}");
    }
}
