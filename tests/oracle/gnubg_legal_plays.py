"""Runs *inside* GNU Backgammon (``gnubg -t -q -p gnubg_legal_plays.py``), never imported.

Reads cases ``{"id": POSITION_ID, "dice": [a, b]}`` as JSON lines from the file
named by $PIPGAMMON_ORACLE_IN and writes, per case, gnubg's own legal plays:
each play's notation (gnubg's ``hint`` list at 0 ply lists every distinct
play) and the Position ID after it, computed by gnubg (``parsemove`` and
``positionid``) plus a few lines here that move checkers between gnubg's own
25-slot arrays.  Output goes to $PIPGAMMON_ORACLE_OUT as JSON lines.
"""

import json
import os

import gnubg


def after(board, move):
    """Apply gnubg's move tuple ((from, to), ...) to gnubg's board (opponent, mover)."""
    opponent, mover = [list(side) for side in board]
    for start, end in move:
        mover[start - 1] -= 1
        if end > 0:
            mover[end - 1] += 1
            facing = 24 - end  # the opponent's slot for the mover's point ``end``
            if opponent[facing] == 1:
                opponent[facing] = 0
                opponent[24] += 1
    return (tuple(opponent), tuple(mover))


def main():
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set evaluation chequerplay evaluation plies 0")
    gnubg.command("set automatic roll off")
    gnubg.command("new session")
    with open(os.environ["PIPGAMMON_ORACLE_IN"]) as source, open(
        os.environ["PIPGAMMON_ORACLE_OUT"], "w"
    ) as sink:
        for line in source:
            case = json.loads(line)
            gnubg.command("new game")
            gnubg.command("set board " + case["id"])
            gnubg.command("set dice {} {}".format(*case["dice"]))
            board = gnubg.board()
            plays = []
            try:
                listing = gnubg.hint(100000)["hint"]
            except Exception as err:  # gnubg raises when there is no legal move
                listing = []
                case["hint_error"] = str(err)
            for entry in listing:
                move = gnubg.parsemove(entry["move"])
                plays.append([entry["move"], gnubg.positionid(after(board, move))])
            case["plays"] = plays
            case["board_id"] = gnubg.positionid(board)
            sink.write(json.dumps(case) + "\n")


main()
