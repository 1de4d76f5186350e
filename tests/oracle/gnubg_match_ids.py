"""Runs *inside* GNU Backgammon, never imported: prints the Match IDs gnubg gives to
the match states described (JSON lines) in $PIPGAMMON_ORACLE_IN, to $PIPGAMMON_ORACLE_OUT."""

import json
import os

import gnubg  # noqa: F401  (provided by the gnubg process)


def main():
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set automatic roll off")
    with open(os.environ["PIPGAMMON_ORACLE_IN"]) as source, open(
        os.environ["PIPGAMMON_ORACLE_OUT"], "w"
    ) as sink:
        for line in source:
            case = json.loads(line)
            gnubg.command("new match %d" % case["length"])
            gnubg.command("set score %d %d" % tuple(case["score"]))
            gnubg.command("set crawford %s" % ("on" if case["crawford"] else "off"))
            gnubg.command("set turn %d" % case["turn"])
            gnubg.command("set cube value %d" % case["cube"])
            if case["owner"] is None:
                gnubg.command("set cube centre")
            else:
                gnubg.command("set cube owner %d" % case["owner"])
            if case["dice"]:
                gnubg.command("set dice %d %d" % tuple(case["dice"]))
            case["match_id"] = gnubg.matchid()
            sink.write(json.dumps(case) + "\n")


main()
