//! The suite on a real Slurm: a one-node cluster started in a temporary
//! directory (munged, slurmctld and slurmd in the foreground, non-default
//! ports, proctrack/linuxproc, task/none), `sbatch --array=0-3` running the
//! four shards of a manifest (read from SLURM_ARRAY_TASK_ID/COUNT), then
//! `symcross merge`, which must equal the unsharded run; then a second
//! array splitting one harness's paths (`check --shard`), whose merge must
//! give the unsharded verdict, findings and path count. Every daemon the
//! test starts is stopped when it ends. Skipped, with a message, when Slurm
//! or munge is not installed (scripts/setup.sh installs both).

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn found(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool} || test -x /usr/sbin/{tool}"))
        .stdout(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn tool(name: &str) -> PathBuf {
    let sbin = PathBuf::from("/usr/sbin").join(name);
    if sbin.exists() {
        sbin
    } else {
        PathBuf::from(name)
    }
}

/// The daemons of the test cluster; stopped on drop.
struct Cluster {
    dir: tempfile::TempDir,
    daemons: Vec<Child>,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for d in self.daemons.iter_mut().rev() {
            let _ = d.kill();
            let _ = d.wait();
        }
    }
}

impl Cluster {
    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    fn client(&self, prog: &str) -> Command {
        let mut c = Command::new(prog);
        c.env("SLURM_CONF", self.conf());
        c
    }

    fn logs(&self) -> String {
        ["munged.log", "slurmctld.log", "slurmd.log"]
            .iter()
            .map(|f| format!("--- {f}\n{}", std::fs::read_to_string(self.dir.path().join(f)).unwrap_or_default()))
            .collect()
    }

    fn start() -> Cluster {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_path_buf();
        let mut cluster = Cluster { dir, daemons: Vec::new() };
        for sub in ["state", "spool"] {
            std::fs::create_dir_all(d.join(sub)).unwrap();
        }
        let key: Vec<u8> = (0..1024u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 ^ std::process::id() as u8).collect();
        std::fs::write(d.join("munge.key"), key).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(d.join("munge.key"), std::fs::Permissions::from_mode(0o600)).unwrap();
        let s = |p: &str| d.join(p).display().to_string();
        let munged = Command::new(tool("munged"))
            .args([
                "--foreground",
                "--force",
                "-S",
                &s("munge.socket"),
                "--key-file",
                &s("munge.key"),
                "--pid-file",
                &s("munged.pid"),
                "--log-file",
                &s("munged.log"),
                "--seed-file",
                &s("munged.seed"),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start munged");
        cluster.daemons.push(munged);
        let host = String::from_utf8(Command::new("hostname").arg("-s").output().unwrap().stdout).unwrap().trim().to_string();
        let user = String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout).unwrap().trim().to_string();
        let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        // Ports away from Slurm's defaults and from other runs of this test.
        let port = 20000 + (std::process::id() % 20000) * 2;
        let conf = format!(
            "ClusterName=symcrosstest\nSlurmctldHost={host}\nSlurmUser={user}\nSlurmdUser={user}\nSlurmctldPort={port}\nSlurmdPort={}\n\
AuthType=auth/munge\nAuthInfo=socket={}\nCredType=cred/munge\nStateSaveLocation={}\nSlurmdSpoolDir={}\n\
SlurmctldPidFile={}\nSlurmdPidFile={}\nSlurmctldLogFile={}\nSlurmdLogFile={}\n\
ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
MpiDefault=none\nReturnToService=2\nSchedulerType=sched/builtin\nJobCompType=jobcomp/none\nJobAcctGatherType=jobacct_gather/none\n\
AccountingStorageType=accounting_storage/none\nNodeName={host} CPUs={cpus} State=UNKNOWN\nPartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            port + 1,
            s("munge.socket"),
            s("state"),
            s("spool"),
            s("slurmctld.pid"),
            s("slurmd.pid"),
            s("slurmctld.log"),
            s("slurmd.log"),
        );
        std::fs::write(cluster.conf(), conf).unwrap();
        wait_for(Duration::from_secs(30), || d.join("munge.socket").exists(), || cluster.logs());
        for daemon in ["slurmctld", "slurmd"] {
            let mut c = Command::new(tool(daemon));
            c.env("SLURM_CONF", cluster.conf()).arg("-D").stdout(Stdio::null()).stderr(Stdio::null());
            if daemon == "slurmctld" {
                c.arg("-i");
            }
            cluster.daemons.push(c.spawn().unwrap_or_else(|e| panic!("start {daemon}: {e}")));
        }
        wait_for(
            Duration::from_secs(120),
            || {
                let out = cluster.client("sinfo").args(["-h", "-o", "%t"]).output();
                out.map(|o| String::from_utf8_lossy(&o.stdout).trim() == "idle").unwrap_or(false)
            },
            || cluster.logs(),
        );
        cluster
    }
}

fn wait_for(limit: Duration, mut ready: impl FnMut() -> bool, logs: impl Fn() -> String) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < limit, "the test cluster did not come up in {limit:?}:\n{}", logs());
        std::thread::sleep(Duration::from_millis(250));
    }
}

const MANIFEST: &str = r#"
[defaults]
expect = "equivalent"
max-time = 300

[[check]]
files = ["zlimit.c"]

[[check]]
files = ["zlimit_broken.c"]
expect = "mismatch"

[[check]]
name = "wrongly expected equivalent"
files = ["zlimit_broken.c"]

[[race]]
files = ["shift.cl"]
local-size = "8"
num-groups = "4"
expect = "race"

[[check]]
name = "zlimit at N=16"
files = ["zlimit.c"]
defines = ["N=16"]
"#;

fn outcomes(r: &Value) -> Vec<(String, String)> {
    r["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["outcome"].as_str().unwrap().to_string()))
        .collect()
}

fn symcross(dir: &Path, cache: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_symcross"))
        .current_dir(dir)
        .env("SYMCROSS_CACHE_DIR", cache)
        .env_remove("CI_NODE_INDEX")
        .env_remove("CI_NODE_TOTAL")
        .env_remove("JOB_COMPLETION_INDEX")
        .args(args)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn shards_of_a_slurm_job_array_merge_into_the_unsharded_run() {
    let missing: Vec<&str> = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"].into_iter().filter(|t| !found(t)).collect();
    if !missing.is_empty() {
        common::skip_or_fail_under_ci(
            "shards_of_a_slurm_job_array_merge_into_the_unsharded_run",
            &format!("{} not installed (scripts/setup.sh installs slurm-wlm and munge)", missing.join(", ")),
        );
        return;
    }
    let project = tempfile::tempdir().unwrap();
    let repo = common::repo();
    for (from, to) in [
        ("harnesses/zlimit.c", "zlimit.c"),
        ("harnesses/zlimit_broken.c", "zlimit_broken.c"),
        ("tests/fixtures/race/inter_group_race.cl", "shift.cl"),
    ] {
        std::fs::copy(repo.join(from), project.path().join(to)).unwrap();
    }
    std::fs::write(project.path().join("symcross.toml"), MANIFEST).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let cluster = Cluster::start();
    let script = format!(
        "#!/bin/sh\ncd {}\nexec {} suite -q -j 1 --no-cache --json shard-$SLURM_ARRAY_TASK_ID.json\n",
        project.path().display(),
        env!("CARGO_BIN_EXE_symcross")
    );
    run_array(&cluster, project.path(), cache.path(), "job", &script);
    let shards: Vec<String> = (0..4).map(|i| format!("shard-{i}.json")).collect();
    for (i, s) in shards.iter().enumerate() {
        let log = std::fs::read_to_string(project.path().join(format!("job-{i}.log"))).unwrap_or_default();
        assert!(project.path().join(s).exists(), "task {i} wrote no report; its log:\n{log}");
        assert!(log.contains(&format!("shard {}/4 (from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT)", i + 1)), "{log}");
    }
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--json", "-"]);
    let (code, merged, err) = symcross(project.path(), cache.path(), &args);
    assert_eq!(code, 1, "{err}");
    let (whole_code, whole, _) = symcross(project.path(), cache.path(), &["suite", "-q", "--no-cache", "--json", "-"]);
    assert_eq!(code, whole_code);
    assert_eq!(outcomes(&merged), outcomes(&whole));
    assert_eq!(outcomes(&merged).len(), 5);
    for k in ["total", "met", "unmet", "errors"] {
        assert_eq!(merged["summary"][k], whole["summary"][k], "{k}");
    }
    // One harness's paths split over the same array (`check --shard`).
    let script = format!(
        "#!/bin/sh\ncd {}\nexec {} check zlimit_broken.c -DN=5 --no-merge --shard $((SLURM_ARRAY_TASK_ID+1))/4 --json part-$SLURM_ARRAY_TASK_ID.json\n",
        project.path().display(),
        env!("CARGO_BIN_EXE_symcross")
    );
    run_array(&cluster, project.path(), cache.path(), "part", &script);
    let parts: Vec<String> = (0..4).map(|i| format!("part-{i}.json")).collect();
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(["--json", "-"]);
    let (code, merged, err) = symcross(project.path(), cache.path(), &args);
    let (whole_code, whole, _) =
        symcross(project.path(), cache.path(), &["check", "zlimit_broken.c", "-DN=5", "--no-merge", "--json", "-"]);
    assert_eq!((code, whole_code), (1, 1), "{err}");
    assert_eq!(merged["stats"]["paths"], whole["stats"]["paths"]);
    let kinds =
        |r: &Value| r["findings"].as_array().unwrap().iter().map(|f| (f["kind"].clone(), f["location"].clone())).collect::<Vec<_>>();
    assert_eq!(kinds(&merged), kinds(&whole));
    drop(cluster);
}

/// Submits `script` as `--array=0-3` (logs `NAME-%a.log`) and waits for
/// every task to end.
fn run_array(cluster: &Cluster, dir: &Path, cache: &Path, name: &str, script: &str) {
    let file = format!("{name}.sh");
    std::fs::write(dir.join(&file), script).unwrap();
    let out = cluster
        .client("sbatch")
        .current_dir(dir)
        .env("SYMCROSS_CACHE_DIR", cache)
        .args(["--parsable", "--array=0-3", "--output", &format!("{name}-%a.log"), &file])
        .output()
        .unwrap();
    let job = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(out.status.success() && !job.is_empty(), "sbatch failed: {}\n{}", String::from_utf8_lossy(&out.stderr), cluster.logs());
    wait_for(
        Duration::from_secs(900),
        || {
            let q = cluster.client("squeue").args(["-h", "-j", &job]).output().unwrap();
            String::from_utf8_lossy(&q.stdout).trim().is_empty()
        },
        || cluster.logs(),
    );
}
