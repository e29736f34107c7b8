#!/usr/bin/env python3
"""commands_from_setup.py SOURCE_ROOT

Every program that the test suite and the scripts run must come from Debian's base system
(packages that are Essential or of priority required or important) or from a package of
scripts/packages.txt that the script running it installs. Otherwise the suite passes on the
machine where someone installed the program by hand, and fails for every new user.

What is read: the scripts of scripts/ and .ci/, those of tests/ and web/ that a meson.build or another
scanned script names, the programs a meson.build finds (find_program) and the programs the C++
sources exec. Each word of a script that names a program on PATH is looked up in dpkg's
database; a program of no package (installed by pip, npm or by hand) is refused unless Debian
has it under the same name in a listed package. The other way round, each command that
packages.txt lists must be run somewhere, and its package must provide it. Python scripts may
import the standard library only.
"""
import ast
import functools
import os
import re
import shutil
import subprocess
import sys

root = os.path.abspath(sys.argv[1])
problems = []

# Words of the scanned scripts that name a program of this machine's but are not run as one
# there: English in a message or a name ("as", "file", "open", "size", "view", "write"), a
# file's suffix ("cpp", "pc"), Python's print, str.strip and zip. A script that does run one of these is
# not caught; keep the list to words read that way.
NOT_COMMANDS = {"as", "cpp", "file", "open", "pc", "print", "size", "strip", "view", "write", "zip"}
# bash's keywords and builtins (`time`, `test`): the shell runs them, not a program.
SHELL_WORDS = set(subprocess.run(["bash", "-c", "compgen -k; compgen -b"], capture_output=True,
                                 text=True).stdout.split())


def rel(path):
    return os.path.relpath(path, root)


# scripts/packages.txt: section -> {package: [commands]}.
sections = {}
section = None
for number, line in enumerate(open(os.path.join(root, "scripts", "packages.txt")), 1):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    if m := re.fullmatch(r"\[([\w-]+)\]", line):
        section = sections.setdefault(m.group(1), {})
    elif section is None:
        problems.append(f"scripts/packages.txt:{number}: a package before the first [section]")
    else:
        package, *commands = line.split()
        section[package] = commands
listed = {}  # command -> {section: package}
for name, packages in sections.items():
    for package, commands in packages.items():
        for c in commands:
            listed.setdefault(c, {})[name] = package


def dpkg_database():
    """dpkg's own files: which package installed each path, and each installed package's fields."""
    owners = {}
    info = "/var/lib/dpkg/info"
    for name in os.listdir(info):
        if name.endswith(".list"):
            package = name[:-5].split(":")[0]
            for line in open(os.path.join(info, name), errors="replace"):
                owners.setdefault(line.rstrip("\n"), package)
    fields = {}
    for stanza in open("/var/lib/dpkg/status", errors="replace").read().split("\n\n"):
        entry = dict(re.findall(r"^([\w-]+): (.*)$", stanza, re.M))
        if "install ok installed" in entry.get("Status", ""):
            fields[entry["Package"]] = entry
    return owners, fields


owners, installed_fields = dpkg_database()
virtual = {}
for package, entry in installed_fields.items():
    for provided in re.findall(r"([\w.+-]+)", re.sub(r"\([^)]*\)", "", entry.get("Provides", ""))):
        virtual.setdefault(provided, set()).add(package)


def owner(path):
    """The Debian package that installed `path` (or its /usr-merged twin), or None."""
    twin = path[4:] if path.startswith("/usr/") else "/usr" + path
    return owners.get(path) or owners.get(twin)


def is_base(package):
    entry = installed_fields.get(package, {})
    return entry.get("Essential") == "yes" or entry.get("Priority") in ("required", "important")


@functools.cache
def closure(package):
    """The package and every installed package it depends on, directly or not."""
    seen, todo = set(), [package]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        entry = installed_fields.get(p, {})
        depends = re.sub(r"\([^)]*\)|:\w+", "", entry.get("Depends", "") + "," + entry.get("Pre-Depends", ""))
        for name in re.findall(r"[\w.+-]+", depends):
            todo += [name] if name in installed_fields else sorted(virtual.get(name, ()))
    return seen


def providers(command):
    """The packages that installed the program `command` resolves to, on PATH or in /usr/bin."""
    found = set()
    for path in filter(None, [shutil.which(command), f"/usr/bin/{command}", f"/bin/{command}"]):
        if os.path.exists(path):
            for candidate in (path, os.path.realpath(path)):
                if package := owner(candidate):
                    found.add(package)
    return found


# The files to read, each with the sections of packages.txt installed before it runs.
def installs(text):
    """The sections a script installs itself (install_packages.sh SECTION...), or None."""
    calls = re.findall(r"install_packages\.sh((?:[ \t]+[\w-]+)+)", text)
    return {s for call in calls for s in call.split()} or None


def comment_free_shell(text):
    text = re.sub(r"(^|\s)#.*", r"\1", text, flags=re.M)
    # Messages (fail "...", echo '...') name programs in prose.
    return re.sub(r"\b(fail|echo|printf)\s+(\"(\\.|[^\"\\])*\"|'[^']*')", r"\1", text)


def python_strings(text, path):
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        problems.append(f"{rel(path)}: not Python ({e})")
        return ""
    return "\n".join(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str))


scanned = {}  # path -> (words, sections)
meson_files = []
for base, dirs, names in os.walk(root):
    dirs[:] = [d for d in dirs if not d.startswith((".git", "build", "subprojects"))]
    meson_files += [os.path.join(base, n) for n in names if n == "meson.build"]
meson_text = "\n".join(open(p).read() for p in meson_files)

queue = [os.path.join(root, ".ci", "run")]
queue += [os.path.join(root, "scripts", n) for n in sorted(os.listdir(os.path.join(root, "scripts"))) if
          n.endswith(".sh")]
test_scripts = []
for folder in ("tests", "web"):
    for base, _, names in os.walk(os.path.join(root, folder)):
        test_scripts += [os.path.join(base, n) for n in names if n.endswith((".sh", ".py"))]
own_modules = {os.path.basename(p)[:-3] for p in test_scripts if p.endswith(".py")}


def program_words(text):
    """The words of `text` that could name a program: not a later part of a path (`/usr/share/
    nodejs`), but a program's own path (`/usr/bin/env`) counts."""
    return {m.group() for m in re.finditer(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*", text)
            if text[m.start() - 1:m.start()] != "/" or re.search(r"\bs?bin/$", text[:m.start()])}


# A script runs with the sections its caller installed: its own install_packages.sh call, else
# those common to every file that names it (a meson.build: [setup], the tests run after it).
meson_named = re.sub(r"#.*", "", meson_text)
texts, sections_of = {}, {}
for path in queue:
    sections_of[path] = None
while queue:
    path = queue.pop()
    # This file names programs in its prose and runs only dpkg-query, apt-cache and bash.
    if os.path.samefile(path, __file__):
        continue
    if path not in texts:
        text = open(path).read()
        python = path.endswith(".py") or text.startswith("#!/usr/bin/env python3")
        words = python_strings(text, path) if python else comment_free_shell(text)
        for module in re.findall(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", text, re.M):
            if module not in sys.stdlib_module_names and module not in own_modules:
                problems.append(f"{rel(path)} imports {module} in Python, which is not in its standard library: "
                                "the suite may use only what scripts/setup.sh installs")
        functions = set(re.findall(r"^\s*([\w-]+)\s*\(\)", text, re.M)) | (set() if python else SHELL_WORDS)
        texts[path] = (words, program_words(words) - functions, installs(text))
    words, _, own = texts[path]
    sections = own or sections_of[path] or {"setup"}
    scanned[path] = (texts[path][1], sections)
    # The suite runs a test script that a meson.build or a scanned script names.
    for script in test_scripts:
        name = os.path.basename(script)
        if name in words or name in meson_named:
            given = {"setup"} if name in meson_named else sections
            before = sections_of.get(script)
            after = given if before is None else before & given
            if script not in sections_of or after != before:
                sections_of[script] = after
                queue.append(script)

# Programs the meson.build files find, and those the C++ sources exec, run in the suite.
found = set(re.findall(r"find_program\(\s*'([^'/]+)'", meson_text))
for base, dirs, names in os.walk(root):
    dirs[:] = [d for d in dirs if not d.startswith((".git", "build", "subprojects"))]
    for n in names:
        if n.endswith((".cpp", ".h")):
            found |= set(re.findall(r"\bexec[lv]p\(\s*\"([^\"/]+)\"", open(os.path.join(base, n)).read()))
scanned["meson.build files and C++ sources"] = ({f for f in found if not f.endswith((".sh", ".py"))}, {"setup"})

# Each word naming a program outside base must be listed, in a section its script installs.
used = set()
for path, (words, installed) in sorted(scanned.items()):
    where = rel(path) if os.path.isabs(path) else path
    for word in sorted(words):
        if word in listed:
            used.add(word)
            if not installed & listed[word].keys():
                problems.append(f"{where} runs {word}, which only section(s) {sorted(listed[word])} of "
                                f"scripts/packages.txt install, and this script installs {sorted(installed)}")
            continue
        if word in NOT_COMMANDS or not word[0].isalpha():
            continue
        path_found = shutil.which(word)
        if path_found is None or os.path.realpath(path_found).startswith(root + os.sep):
            continue
        packages = providers(word)
        if packages and all(is_base(p) for p in packages):
            continue
        origin = f"Debian's {' '.join(sorted(packages))}" if packages else "no Debian package (installed by hand?)"
        problems.append(f"{where} runs {word} ({path_found}, from {origin}), which neither Debian's base system "
                        "nor scripts/packages.txt provides: add its package, with the command, to the section "
                        "that script installs ([setup] for the tests)")

# Each listed command is run somewhere, and its package provides it.
for command, by_section in sorted(listed.items()):
    if command not in used:
        problems.append(f"scripts/packages.txt lists {command}, which no test or script runs")
    for package in sorted(set(by_section.values())):
        if package not in installed_fields:
            continue  # not installed here; the run that needs it installs it
        packages = providers(command)
        if not packages & closure(package):
            problems.append(f"scripts/packages.txt: {package} does not provide {command} "
                            f"(here it comes from {' '.join(sorted(packages)) or 'no Debian package'})")

for p in problems:
    print("FAIL:", p)
if problems:
    sys.exit(1)
commands = sum(len(words) for words, _ in scanned.values())
print(f"commands_from_setup: {len(scanned)} scripts read; the {len(used)} commands they run outside Debian's base "
      f"system all come from scripts/packages.txt ({', '.join(sorted(used))})")
