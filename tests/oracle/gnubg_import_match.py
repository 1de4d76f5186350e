"""Runs *inside* GNU Backgammon, never imported: reads each match file named in the JSON lines
of $PIPGAMMON_ORACLE_IN ({"path", "format": "mat" or "sgf", "jacoby"}) and writes what gnubg
made of it (gnubg.match()) to $PIPGAMMON_ORACLE_OUT, one JSON line per file."""

import json
import os

import gnubg


def main():
    with open(os.environ["PIPGAMMON_ORACLE_IN"]) as source, open(
        os.environ["PIPGAMMON_ORACLE_OUT"], "w"
    ) as sink:
        for line in source:
            case = json.loads(line)
            gnubg.command("set player 0 human")
            gnubg.command("set player 1 human")
            gnubg.command("new match 1")  # forget the last file's match
            # A .mat cannot say whether a money session used the Jacoby rule: gnubg's setting does.
            gnubg.command("set jacoby " + ("on" if case.get("jacoby") else "off"))
            if case.get("format", "mat") == "sgf":
                gnubg.command("load match " + case["path"])
            else:
                gnubg.command("import mat " + case["path"])
            try:
                case["match"] = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
            except Exception as err:  # gnubg raises a bare exception when nothing was imported
                case["match"] = None
                case["error"] = str(err)
            sink.write(json.dumps(case) + "\n")


main()
