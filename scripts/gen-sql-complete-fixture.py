#!/usr/bin/env python3
"""Writes test/fixtures/sql-complete.json: inputs and sqlite3's own verdict on them.

The verdict is sqlite3_complete() through Python's sqlite3.complete_statement, so the TypeScript
port in src/api/database/complete.ts is checked against SQLite itself, not against our reading
of complete.c. Hand-written tricky inputs first, then seeded random mixes of fragments.

Usage: python3 scripts/gen-sql-complete-fixture.py [--count N] [--seed S]
"""
import argparse
import json
import os
import random
import sqlite3

HAND = [
    "", " ", ";", " ; ", ";;", "SELECT 1", "SELECT 1;", "SELECT 1 ;  ", "SELECT 1; -- done", "SELECT 1; -- done\n",
    "SELECT 1 -- no semicolon; here", "SELECT 1 -- comment\n;", "SELECT 1; /* open", "SELECT 1; /* closed */",
    "/* only a comment */", "-- only a comment", "-- only a comment\n", "/* ; */", "/* ; */ ;",
    "SELECT ';'", "SELECT ';';", "SELECT 'it''s';", "SELECT 'it''s", "SELECT \"a;b\";", "SELECT \"a;b", "SELECT `a;b`;",
    "SELECT `a;b", "SELECT [a;b];", "SELECT [a;b", "SELECT [a]];", "SELECT a-b;", "SELECT a - -b;", "SELECT 4/2;",
    "SELECT 4/*x*/2;", "SELECT 1 /* ; */", "SELECT 1 /* ; */;", "SELECT 1 /", "SELECT 1 -", "SELECT 1; SELECT 2",
    "SELECT 1; SELECT 2;", "SELECT 'a\nb';", "SELECT 'a\nb", "\tSELECT\t1\t;\t", "SELECT 1\r\n;\r\n", "SELECT 1\f;",
    "SELECT 1\v;", "SELECT 'ž';", "SELECT 日本;", "SELECT ünï", "CREATE TABLE t(x);", "CREATE TABLE t(x)",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT CASE WHEN 1 THEN 2 END; END;",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT CASE WHEN 1 THEN 2 END;",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT CASE WHEN 1 THEN 2 END; END ;",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END; SELECT 2;",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END; SELECT 2",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; /* c */ END /* d */ ;",
    "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; -- c\nEND -- d\n;",
    "CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;",
    "CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;",
    "CREATE TEMPORARY TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;",
    "create temporary trigger tr after insert on t begin select 1; end;",
    "create temporary trigger tr after insert on t begin select 1;",
    "CREATE TEMP TEMP TRIGGER x BEGIN SELECT 1;", "CREATE UNIQUE TRIGGER x BEGIN SELECT 1;",
    "EXPLAIN CREATE TRIGGER tr BEGIN SELECT 1;", "EXPLAIN CREATE TRIGGER tr BEGIN SELECT 1; END;",
    "EXPLAIN QUERY PLAN CREATE TRIGGER tr BEGIN SELECT 1;", "EXPLAIN EXPLAIN CREATE TRIGGER x BEGIN SELECT 1;",
    "EXPLAIN SELECT 1;", "EXPLAIN", "EXPLAIN;", "CREATE;", "CREATE TRIGGER;", "CREATE TRIGGER", "TRIGGER;",
    "CREATE TRIGGER x BEGIN SELECT 'END;'; END;", "CREATE TRIGGER x BEGIN SELECT 'a'; END;", "CREATE TRIGGER x BEGIN SELECT 1;END;",
    "CREATE TRIGGER x BEGIN SELECT 1;ENDx;", "CREATE TRIGGER x BEGIN SELECT 1; xEND;", "CREATE TRIGGER x BEGIN SELECT 1; END; END;",
    "CREATE TRIGGER x BEGIN ; ; END;", "CREATE TRIGGER x BEGIN SELECT 1;;END;", "CREATE TRIGGER x BEGIN SELECT 1; END END;",
    "CREATE TRIGGER x BEGIN SELECT 1; END; CREATE TRIGGER y BEGIN SELECT 2;", "CREATETRIGGER x;",
    "CREATE /* x */ TRIGGER x BEGIN SELECT 1;", "CREATE -- x\nTRIGGER x BEGIN SELECT 1;", "CREATE\"x\"TRIGGER;",
    "CREATE [TRIGGER] x;", "CREATE 'TRIGGER' x;", "CREATE TRIGGER [x;] BEGIN SELECT 1; END;", "CREATE$ TRIGGER x;",
    "CREATE_ TRIGGER x;", "CREATE1 TRIGGER x;", "xCREATE TRIGGER x;", "CREATE TRIGGERS x;", "SELECT END;", "END;",
    "SELECT 1; END", "'", "\"", "`", "[", "]", "]]", "--", "/*", "*/", "*/;", "-", "/", "$;", "_;", "é;", ";é",
    "SELECT '", "SELECT 1 --", "SELECT 1; --", "SELECT 1;--\n", "SELECT 1;/**/", "SELECT 1;/*", "SELECT 1;/**",
    "SELECT 1;/*/", "SELECT 1 /**/ ;", "SELECT x'00ff';", "SELECT X'';", "SELECT :a, @b, $c, ?1, ?;",
    "SELECT 1 -- a\n-- b\n;", "BEGIN; INSERT INTO t VALUES (1); COMMIT;", "BEGIN", "BEGIN;", "SAVEPOINT a;",
    "SELECT 1e5;", "SELECT .5;", "SELECT 0x1F;", "SELECT \"\"\"\";", "SELECT '''';", "SELECT ```;", "SELECT [[];",
    "SELECT 1\n;\n", "\n\n\n;", "  \n SELECT\n 1\n", "SELECT 'a' 'b';", "CREATE TABLE \"end\"(x);", "CREATE TABLE [end](x);",
    "CREATE TRIGGER t BEGIN SELECT 1; \"END\";", "CREATE TRIGGER t BEGIN SELECT 1; [END];", "CREATE TRIGGER t BEGIN SELECT 1; `END`;",
    "CREATE TRIGGER t BEGIN SELECT 1; end;", "CREATE TRIGGER t BEGIN SELECT 1; EnD ;", "CREATE TRIGGER t BEGIN SELECT 1; END\t;",
]

FRAGMENTS = [
    "SELECT 1", "SELECT", " ", " ", " ", "\n", "\t", "\r", "\f", "\v", ";", ";", ";", "'", "\"", "`", "[", "]", "--", "-", "/*", "*/",
    "/", "*", "CREATE", "create", "TEMP", "temp", "TEMPORARY", "TRIGGER", "trigger", "END", "end", "EXPLAIN", "explain",
    "BEGIN", "CASE", "WHEN", "x", "t1", "'a;b'", "\"c;d\"", "[e;f]", "`g;h`", "-- c;\n", "/* ; */", "é", "日本", "ünï",
    ";END;", "END;", "$", "_", "1", "CREATEX", "ENDS", "xEND", "TRIGGERx", "(", ")", ",", "=", "'it''s'", "--\n",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=20261121)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    inputs = list(HAND)
    seen = set(inputs)
    while len(inputs) < len(HAND) + args.count:
        n = rng.randint(1, 14)
        s = "".join(rng.choice(FRAGMENTS) for _ in range(n))
        # end half of them with a semicolon (and some with trailing space or a comment) so that
        # both verdicts are well represented
        if rng.random() < 0.5:
            s += rng.choice([";", ";", "; ", ";\n", "; -- x", ";END;", "; /* x */"])
        if s not in seen:
            seen.add(s)
            inputs.append(s)
    cases = [{"sql": s, "complete": bool(sqlite3.complete_statement(s))} for s in inputs]
    out = {
        "generator": "scripts/gen-sql-complete-fixture.py",
        "seed": args.seed,
        "sqlite_version": sqlite3.sqlite_version,
        "complete_count": sum(1 for c in cases if c["complete"]),
        "cases": cases,
    }
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, "test", "fixtures", "sql-complete.json")
    head = {k: v for k, v in out.items() if k != "cases"}
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "cases": [\n')
        f.write(",\n".join(json.dumps(c, ensure_ascii=False) for c in cases))
        f.write("\n]}\n")
    print(f"wrote {len(cases)} cases ({out['complete_count']} complete) to {path}")


if __name__ == "__main__":
    main()
