"""Session 24: three draft problems a user trial found (``dpboost schema``).

1. Columns of dates (``2021-03-04``, ``03/04/2021``, ``04.03.2021``, ``2021-03-04 12:30:00``)
   were dropped as "more than 50 distinct texts", never called dates; under ``--decimal ,
   --thousands .`` a column ``27.09.2015`` was told to pass ``--thousands '.'``, a flag
   already given, and the bank file was told to pass ``--thousands ','`` though it had.
2. A German identifier ``Kundennr`` (unique sequential integers) was drafted as a feature:
   only a last whole word ``nr`` counted, not one run together with what it identifies.
3. Label classes were sorted, so ``["Ja", "Nein"]`` made "Nein" the positive (second) class.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from dpboost.cli import main
from dpboost.cli.schema import _cell_hint, _with_flags
from dpboost.schema_draft import (DATE_NOTE_START, IDENTIFIER_NOTE, date_formats, draft_schema,
                                  looks_like_identifier, ordered_classes)


def _write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path


# -- 1. dates ---------------------------------------------------------------------------------
def _days(n: int, start: str = "2015-01-01") -> pd.DatetimeIndex:
    return pd.date_range(start, periods=n, freq="37D")


DATE_COLUMNS = {  # name: (cells, the format the draft names)
    "iso": ([d.strftime("%Y-%m-%d") for d in _days(120)], "YYYY-MM-DD"),
    "us": ([d.strftime("%m/%d/%Y") for d in _days(120)], "MM/DD/YYYY"),
    "european": ([d.strftime("%d.%m.%Y") for d in _days(120)], "DD.MM.YYYY"),
    "stamp": ([d.strftime("%Y-%m-%d %H:%M:%S") for d in _days(120)],
              "YYYY-MM-DD with a time of day"),
    "iso_t": ([d.strftime("%Y-%m-%dT%H:%M:%SZ") for d in _days(120)],
              "YYYY-MM-DD with a time of day"),
    "dashes": ([d.strftime("%d-%m-%Y") for d in _days(120)], "DD-MM-YYYY"),
}


@pytest.mark.parametrize("name", sorted(DATE_COLUMNS))
def test_a_column_of_dates_is_dropped_with_a_note_that_calls_them_dates(name):
    cells, shown = DATE_COLUMNS[name]
    frame = pd.DataFrame({name: cells, "y": ["a", "b"] * 60})
    spec = draft_schema(frame, "y").columns[name].to_dict()
    assert spec["type"] == "drop" and spec["from_data"] == ["type"]
    assert spec["note"].startswith(DATE_NOTE_START) and f"({shown};" in spec["note"]
    assert "days since a public date" in spec["note"] and "year" in spec["note"]


def test_only_the_listed_formats_and_real_calendar_days_are_dates():
    assert date_formats(pd.Series(["31.02.2021", "01.01.2021"])) == []  # no 31 February
    assert date_formats(pd.Series(["2021-03-04", "03/04/2021"])) == []  # two formats mixed
    assert date_formats(pd.Series(["20210304", "20210305"])) == []  # a number, not guessed
    assert date_formats(pd.Series(["3/4/21", "5/6/22"])) == []  # two-digit years: not guessed
    assert date_formats(pd.Series(["1.5", "2.25"])) == []
    assert date_formats(pd.Series(["2021-03-04 25:00"])) == []  # no hour 25
    assert date_formats(pd.Series([None, "", "NA", "2021-03-04"])) == ["YYYY-MM-DD"]
    assert date_formats(pd.Series(["01/02/2021", "12/11/2020"])) == ["MM/DD/YYYY",
                                                                    "DD/MM/YYYY"]
    assert date_formats(pd.Series(pd.to_datetime(["2021-03-04", "2021-05-06"]))) == [
        "a time-stamp type"]


def test_few_dates_stay_categories_and_the_command_says_they_are_dates(tmp_path, capsys):
    rows = "".join(f"2021-0{1 + k % 3}-01,{k % 7},{'ab'[k % 2]}\n" for k in range(60))
    data = _write(tmp_path / "d.csv", "snapshot,x,y\n" + rows)
    out = tmp_path / "d.json"
    assert main(["schema", str(data), "--label", "y", "--out", str(out)]) == 0
    spec = json.loads(out.read_text())["columns"]["snapshot"]
    assert spec["type"] == "categorical" and len(spec["categories"]) == 3
    err = capsys.readouterr().err
    assert "over the dates the file holds, every cell a date: ['snapshot']" in err, err


def _bank_like(n: int = 120) -> str:
    """The trial's bank file in small: four date formats, thousands commas, a decimal-comma
    fee (which no flag reads beside --thousands ',')."""
    days = _days(n)
    lines = ["customer_id,opened,last_login,birth,created,balance,fee,income"]
    for k, d in enumerate(days):
        lines.append(f"CUST-{100000 + k},{d:%Y-%m-%d},{d:%m/%d/%Y},{d:%d.%m.%Y},"
                     f"{d:%Y-%m-%d %H:%M:%S},\"${1000 + 37 * k:,}.50\",\"€ {k % 30},{k % 9}\","
                     f"{'>50K' if k % 3 else '<=50K'}")
    return "\n".join(lines) + "\n"


def test_the_bank_dates_are_called_dates_and_no_hint_repeats_a_given_flag(tmp_path, capsys):
    data = _write(tmp_path / "bank.csv", _bank_like())
    out = tmp_path / "d.json"
    assert main(["schema", str(data), "--label", "income", "--thousands", ",",
                 "--out", str(out)]) == 0
    columns = json.loads(out.read_text())["columns"]
    for name in ("opened", "last_login", "birth", "created"):
        assert columns[name]["note"].startswith(DATE_NOTE_START), name
    err = capsys.readouterr().err
    assert ("every cell a date (the column's note says in which format): ['opened', "
            "'last_login', 'birth', 'created']") in err, err
    assert "more than 50 distinct texts" not in err
    assert "--thousands ','" not in err.replace("--thousands ',' (given)", ""), err
    assert "column 'fee'" in err and "(given) does not read" in err


def test_the_german_file_names_its_date_column_and_drops_its_identifier(tmp_path, capsys):
    days = _days(90, "2005-01-01")
    rows = "".join(f"{1000 + k};{d:%d.%m.%Y};{k * 17 % 900},{k % 10} €;"
                   f"{'Ja' if k % 4 else 'Nein'}\n" for k, d in enumerate(days))
    data = _write(tmp_path / "eu.csv", "Kundennr;Eröffnet;Umsatz;Kündigung\n" + rows)
    out = tmp_path / "d.json"
    assert main(["schema", str(data), "--label", "Kündigung", "--decimal", ",",
                 "--thousands", ".", "--out", str(out)]) == 0
    draft = json.loads(out.read_text())
    assert draft["columns"]["Kundennr"] == {"type": "drop", "note": IDENTIFIER_NOTE,
                                            "from_data": ["type"]}
    assert draft["columns"]["Eröffnet"]["note"].startswith(DATE_NOTE_START)
    assert "(DD.MM.YYYY;" in draft["columns"]["Eröffnet"]["note"]
    assert draft["label"]["classes"] == ["Nein", "Ja"]
    err = capsys.readouterr().err
    assert "--thousands '.'" not in err and "--decimal ," not in err, err
    assert "every cell a date" in err and "['Eröffnet']" in err


# cells written for people, and every pair of flags the command accepts
CELLS = ["1,234", "12,5", "6,8", "€ 6,8", "1.234", "1.234,5", "1,234.5", "12.5%", "1 234",
         "1'234", "12,34", "0,125", "1.234.567", "1,234,567", "(1,234)", "$1,355.10", "72 kg",
         "27.09.2015", "12,3456", "1.5"]
FLAGS = [(d, t) for d in (".", ",") for t in (None, ",", ".", "'", " ") if t != d]


@pytest.mark.parametrize("decimal,thousands", FLAGS)
def test_no_hint_advises_a_flag_already_given(decimal, thousands):
    """Over 20 cells and the 8 flag pairs: a hint advises --thousands only when none was
    given (and then only another separator, 'instead of' the given one), and --decimal , only
    when neither --decimal , nor --thousands , was given (the command refuses that pair)."""
    for cell in CELLS:
        hint = _with_flags(_cell_hint(cell, decimal, thousands), decimal, thousands)
        for mark in (",", ".", "'", " "):
            quoted = f'"{mark}"' if mark == "'" else f"'{mark}'"
            if f"pass --thousands {quoted}" in hint:
                assert thousands is None or (mark != thousands and "instead of" in hint), (
                    cell, hint)
        if "pass --decimal ," in hint:
            assert decimal == "." and thousands != ",", (cell, hint)


def test_a_separator_out_of_place_under_the_given_flag_says_so_without_the_cell():
    hint = _with_flags(_cell_hint("6,8", ".", ","), ".", ",")
    assert "(given) does not read" in hint and "6,8" not in hint
    # without the flag the hint still advises it (nothing given, nothing repeated)
    assert "pass --thousands ','" in _with_flags(_cell_hint("6,8", ".", None))


# -- 2. identifiers -----------------------------------------------------------------------------
#: Names a person reads as a row's identifier (43): whole words, run-together words in English,
#: German, Dutch, French, Spanish, Italian and Portuguese, and first words in the Romance order.
IDS = ["id", "customer_id", "PassengerId", "customerID", "CustomerNumber", "Kunden-Nr",
       "Kundennr", "KundenNr", "Kundennummer", "kundennummer", "Auftragsnummer", "Auftragsnr",
       "Rechnungsnr", "Artikelnr", "Bestellnummer", "Mitarbeiternummer", "Personalnummer",
       "klantnummer", "kundenid", "KundenID", "clientid", "userid", "customerid", "orderid",
       "productid", "sessionid", "auftragsid", "customernumber", "ordernumber", "orderno",
       "invoiceno", "empno", "rollno", "accountno", "acctnum", "custnum", "customerkey",
       "productkey", "useruuid", "devicesguid", "numero_client", "número_pedido",
       "id_cliente", "ID_Kunde", "nro_cliente", "codigo_id"]
#: Names that only contain an identifier word (46): English and German words, counts.
NOT_IDS = ["paid", "valid", "invalid", "humid", "Android", "android", "squid", "rapid", "acid",
           "fluid", "liquid", "solid", "hybrid", "pyramid", "corner", "number_of_children",
           "num_children", "no_of_items", "nr_rooms", "NumberOfRooms", "monkey", "donkey",
           "turkey", "hockey", "whiskey", "keyboard", "piano", "casino", "volcano", "domino",
           "platinum", "income", "identity", "idea", "nose", "numeric", "Kündigung",
           "Nummernschild", "humidity", "Region", "Umsatz", "Zins", "Geburtsjahr", "tenure",
           "morbid", "amid"]


def test_the_name_lists_are_long_enough_to_measure():
    assert len(IDS) >= 40 and len(NOT_IDS) >= 40
    assert not set(IDS) & set(NOT_IDS)


def test_every_identifier_name_is_recognised_and_no_other_word():
    """Measured: all 46 identifier names and none of the 46 other names."""
    assert [n for n in IDS if not looks_like_identifier(n)] == []
    assert [n for n in NOT_IDS if looks_like_identifier(n)] == []


@pytest.mark.parametrize("name", ["Kundennr", "Kundennummer", "kundenid", "clientid",
                                  "numero_client", "Auftragsnummer"])
def test_a_unique_run_together_identifier_is_dropped(name):
    frame = pd.DataFrame({name: range(1000, 1300), "age": np.arange(300) % 70,
                          "y": ["nein", "ja"] * 150})
    assert draft_schema(frame, "y").columns[name].to_dict() == {
        "type": "drop", "note": IDENTIFIER_NOTE, "from_data": ["type"]}


def test_only_unique_whole_values_make_a_run_together_name_an_identifier():
    frame = pd.DataFrame({"Kundennr": [1, 2, 2, 3] * 10, "nr_rooms": np.arange(40) + 1,
                          "paid": np.arange(40) * 3, "Auftragsnummer": np.linspace(1.5, 90, 40),
                          "y": ["a", "b"] * 20})
    columns = draft_schema(frame, "y").columns
    for name in ("Kundennr", "nr_rooms", "paid", "Auftragsnummer"):  # repeated, a word, a word,
        assert columns[name].to_dict()["type"] == "numeric", name  # a fraction


# -- 3. the label's positive class ---------------------------------------------------------------
PAIRS = [("no", "yes"), ("n", "y"), ("false", "true"), ("0", "1"), ("nein", "ja"),
         ("non", "oui"), ("neg", "pos"), ("negative", "positive"), ("f", "t"), ("nee", "ja"),
         ("não", "sim")]


@pytest.mark.parametrize("negative,positive", PAIRS)
@pytest.mark.parametrize("case", [str.lower, str.upper, str.title])
def test_a_no_yes_pair_lists_the_negative_first_in_any_case(negative, positive, case):
    frame = pd.DataFrame({"x": np.arange(20) % 5,
                          "y": [case(positive), case(negative)] * 10})
    assert draft_schema(frame, "y").label.classes == (case(negative), case(positive))


@pytest.mark.parametrize("classes", [["bad", "good"], ["approved", "denied"], ["1", "2"],
                                     ["<=50K", ">50K"], ["A", "B"]])
def test_other_pairs_keep_the_sorted_order(classes):
    assert ordered_classes(classes) == (classes, False)
    frame = pd.DataFrame({"x": np.arange(20) % 5, "y": classes[::-1] * 10})
    assert list(draft_schema(frame, "y").label.classes) == classes


def test_three_classes_are_sorted_even_with_a_yes_and_a_no():
    frame = pd.DataFrame({"x": np.arange(30) % 5, "y": ["yes", "no", "maybe"] * 10})
    assert draft_schema(frame, "y").label.classes == ("maybe", "no", "yes")


@pytest.mark.parametrize("labels,positive,pair", [("Ja,Nein", "Ja", True),
                                                  ("bad,good", "good", False)])
def test_the_command_says_which_class_is_positive_and_how_to_swap(tmp_path, capsys, labels,
                                                                   positive, pair):
    a, b = labels.split(",")
    rows = "".join(f"{k % 9},{a if k % 3 else b}\n" for k in range(60))
    data = _write(tmp_path / "d.csv", "x,y\n" + rows)
    assert main(["schema", str(data), "--label", "y", "--out", str(tmp_path / "d.json")]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "the positive class of the label" in line]
    assert len(lines) == 1, err
    assert re.search(rf"makes '{positive}' the positive class of the label 'y'", lines[0])
    assert "swap the two" in lines[0]
    assert ("'classes': read as a no/yes pair" in lines[0]) == pair
    assert ("not read as a no/yes pair" in lines[0]) == (not pair)


def test_a_label_of_one_class_names_no_positive_class(tmp_path, capsys):
    data = _write(tmp_path / "d.csv", "x,y\n" + "".join(f"{k % 9},yes\n" for k in range(30)))
    assert main(["schema", str(data), "--label", "y", "--out", str(tmp_path / "d.json")]) == 0
    assert "the positive class of the label" not in capsys.readouterr().err
