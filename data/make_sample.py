"""Builds data/sample.jsonl: a small, self-written CRAG-schema sample for `make run` and the tests.

Every page is written for this project (not scraped). Pages carry the noise real pages have:
navigation, cookie banners, scripts, styles, footers. The set covers prose, tables, a comparison,
a calculation, a false premise and a question whose answer is on none of the pages.

    python data/make_sample.py   # rewrites data/sample.jsonl (python -m data.make_sample likewise)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

BOILERPLATE_HEAD = """<head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif}} .nav a{{margin:4px}}</style>
<script>window.dataLayer=window.dataLayer||[];function track(e){{dataLayer.push(e)}}</script></head>"""

BOILERPLATE_NAV = """<div class="nav"><a href="/">Home</a><a href="/news">News</a><a href="/topics">Topics</a>
<a href="/about">About us</a><a href="/login">Sign in</a></div>
<div class="cookie">We use cookies to improve your experience. <button>Accept all</button></div>"""

BOILERPLATE_FOOT = """<footer><p>Subscribe to our newsletter for weekly updates.</p>
<p>&copy; 2024 Example Media Group. All rights reserved. Privacy policy | Terms of use</p></footer>
<script>track({{"event":"pageview"}});</script>"""


def page(title: str, body: str) -> str:
    return (
        f"<!DOCTYPE html><html>{BOILERPLATE_HEAD.format(title=title)}<body>{BOILERPLATE_NAV}"
        f"<main><article><h1>{title}</h1>{body}</article></main>{BOILERPLATE_FOOT.format()}</body></html>"
    )


def table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{cell}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def result(name: str, url: str, snippet: str, html: str, modified: str = "") -> dict[str, str]:
    return {
        "page_name": name,
        "page_url": url,
        "page_snippet": snippet,
        "page_result": html,
        "page_last_modified": modified,
    }


QUESTIONS = [
    {
        "interaction_id": "sample-01-capital",
        "query_time": "03/04/2024, 10:12:00 PT",
        "domain": "open",
        "question_type": "simple",
        "static_or_dynamic": "static",
        "popularity": "head",
        "query": "what is the capital city of australia?",
        "answer": "canberra",
        "alt_ans": [],
        "search_results": [
            result(
                "Canberra - Travel guide to Australia's capital",
                "https://travel.example.com/australia/canberra",
                "Canberra is the capital city of Australia, chosen in 1908 as a compromise "
                "between Sydney and Melbourne.",
                page(
                    "Canberra: Australia's purpose-built capital",
                    "<p>Many visitors assume that Sydney, the largest city, is the seat of government. "
                    "In fact Canberra is the capital city of Australia.</p>"
                    "<p>The site was chosen in 1908 as a compromise between the rival cities of Sydney and "
                    "Melbourne. Parliament first sat in Canberra in 1927.</p>"
                    "<p>Today the city has about 460,000 residents and hosts the High Court and many "
                    "national museums.</p>",
                ),
                "2023-11-02",
            ),
            result(
                "Largest cities in Australia by population",
                "https://stats.example.org/australia-cities",
                "Sydney and Melbourne are the two largest cities in Australia.",
                page(
                    "Largest cities in Australia",
                    "<p>The table lists Australia's five largest urban areas.</p>"
                    + table(
                        ["Rank", "City", "State", "Population (2021)"],
                        [
                            ["1", "Sydney", "New South Wales", "5,231,000"],
                            ["2", "Melbourne", "Victoria", "4,976,000"],
                            ["3", "Brisbane", "Queensland", "2,568,000"],
                            ["4", "Perth", "Western Australia", "2,193,000"],
                            ["5", "Adelaide", "South Australia", "1,387,000"],
                        ],
                    ),
                ),
            ),
        ],
    },
    {
        "interaction_id": "sample-02-medals",
        "query_time": "02/20/2024, 18:40:10 PT",
        "domain": "sports",
        "question_type": "simple",
        "static_or_dynamic": "static",
        "popularity": "torso",
        "query": "how many gold medals did norway win at the 2022 winter olympics?",
        "answer": "16",
        "alt_ans": ["16 gold medals"],
        "search_results": [
            result(
                "2022 Winter Olympics medal table",
                "https://sportsref.example.com/olympics/2022-winter/medals",
                "Final medal standings of the 2022 Winter Olympics in Beijing.",
                page(
                    "2022 Winter Olympics medal table",
                    "<p>The Beijing 2022 Games ended on 20 February 2022. The final standings of the top "
                    "five nations are below.</p>"
                    + table(
                        ["Rank", "Nation", "Gold", "Silver", "Bronze", "Total"],
                        [
                            ["1", "Norway", "16", "8", "13", "37"],
                            ["2", "Germany", "12", "10", "5", "27"],
                            ["3", "China", "9", "4", "2", "15"],
                            ["4", "United States", "8", "10", "7", "25"],
                            ["5", "Sweden", "8", "5", "5", "18"],
                        ],
                    ),
                ),
                "2022-02-21",
            ),
            result(
                "Winter sports news: biathlon recap",
                "https://news.example.com/biathlon-recap",
                "Johannes Thingnes Bø led the Norwegian biathlon team in Beijing.",
                page(
                    "Biathlon recap",
                    "<p>Johannes Thingnes Bø won four gold medals in biathlon in Beijing, the most of any "
                    "athlete at the Games.</p><p>The next Winter Olympics will be held in Milan and "
                    "Cortina d'Ampezzo in 2026.</p>",
                ),
            ),
        ],
    },
    {
        "interaction_id": "sample-03-false-premise",
        "query_time": "03/12/2024, 09:05:44 PT",
        "domain": "open",
        "question_type": "false_premise",
        "static_or_dynamic": "static",
        "popularity": "head",
        "query": "in what year was the eiffel tower moved from paris to london?",
        "answer": "invalid question",
        "alt_ans": [],
        "search_results": [
            result(
                "Eiffel Tower - history and facts",
                "https://landmarks.example.com/eiffel-tower",
                "The Eiffel Tower has stood on the Champ de Mars in Paris since 1889.",
                page(
                    "The Eiffel Tower",
                    "<p>The Eiffel Tower was built for the 1889 World's Fair and has stood on the Champ de "
                    "Mars in Paris ever since. It has never been moved.</p>"
                    "<p>It is 330 metres tall including its antennas and receives about seven million "
                    "visitors a year.</p>",
                ),
            ),
        ],
    },
    {
        "interaction_id": "sample-04-absent",
        "query_time": "03/01/2024, 16:30:00 PT",
        "domain": "finance",
        "question_type": "simple",
        "static_or_dynamic": "real-time",
        "popularity": "tail",
        "query": "what was the closing price of northwind robotics stock on 02/29/2024?",
        "answer": "$57.32",
        "alt_ans": [],
        "search_results": [
            result(
                "Northwind Robotics company profile",
                "https://finance.example.com/company/northwind-robotics",
                "Northwind Robotics designs warehouse automation systems.",
                page(
                    "Northwind Robotics (NWRB) company profile",
                    "<p>Northwind Robotics designs warehouse automation systems and was founded in 2011 in "
                    "Austin, Texas.</p><p>The company employs about 2,300 people and reports earnings "
                    "every quarter.</p>",
                ),
            ),
            result(
                "Robotics stocks to watch",
                "https://invest.example.com/robotics-stocks",
                "A look at automation companies ahead of earnings season.",
                page(
                    "Robotics stocks to watch",
                    "<p>Automation companies rallied in January as warehouse demand recovered.</p>"
                    "<p>Analysts expect earnings reports in the second half of March.</p>",
                ),
            ),
        ],
    },
    {
        "interaction_id": "sample-05-comparison",
        "query_time": "01/15/2024, 12:00:00 PT",
        "domain": "open",
        "question_type": "comparison",
        "static_or_dynamic": "static",
        "popularity": "torso",
        "query": "which is taller, mount kilimanjaro or mount kenya?",
        "answer": "mount kilimanjaro",
        "alt_ans": ["kilimanjaro"],
        "search_results": [
            result(
                "Highest mountains of Africa",
                "https://geo.example.org/africa-peaks",
                "Kilimanjaro is the highest mountain in Africa.",
                page(
                    "Highest mountains of Africa",
                    "<p>Africa's high peaks are mostly volcanic.</p>"
                    + table(
                        ["Mountain", "Country", "Elevation (m)"],
                        [
                            ["Mount Kilimanjaro", "Tanzania", "5,895"],
                            ["Mount Kenya", "Kenya", "5,199"],
                            ["Mount Stanley", "DR Congo / Uganda", "5,109"],
                        ],
                    )
                    + "<p>Kilimanjaro's summit, Uhuru Peak, is the highest point on the continent.</p>",
                ),
            ),
        ],
    },
    {
        "interaction_id": "sample-06-calculation",
        "query_time": "03/08/2024, 20:15:31 PT",
        "domain": "movie",
        "question_type": "post-processing",
        "static_or_dynamic": "static",
        "popularity": "head",
        "query": "how many years passed between the release of the first and the last harry potter films?",
        "answer": "10 years",
        "alt_ans": ["10"],
        "search_results": [
            result(
                "Harry Potter film series",
                "https://movies.example.com/harry-potter-series",
                "The Harry Potter series comprises eight films released between 2001 and 2011.",
                page(
                    "Harry Potter film series",
                    "<p>The series comprises eight films.</p>"
                    + table(
                        ["Film", "Release year"],
                        [
                            ["Harry Potter and the Philosopher's Stone", "2001"],
                            ["Harry Potter and the Chamber of Secrets", "2002"],
                            ["Harry Potter and the Prisoner of Azkaban", "2004"],
                            ["Harry Potter and the Goblet of Fire", "2005"],
                            ["Harry Potter and the Order of the Phoenix", "2007"],
                            ["Harry Potter and the Half-Blood Prince", "2009"],
                            ["Harry Potter and the Deathly Hallows – Part 1", "2010"],
                            ["Harry Potter and the Deathly Hallows – Part 2", "2011"],
                        ],
                    ),
                ),
            ),
        ],
    },
    {
        "interaction_id": "sample-07-songwriter",
        "query_time": "02/02/2024, 08:45:12 PT",
        "domain": "music",
        "question_type": "simple",
        "static_or_dynamic": "static",
        "popularity": "head",
        "query": "who wrote the song bohemian rhapsody?",
        "answer": "freddie mercury",
        "alt_ans": [],
        "search_results": [
            result(
                "Bohemian Rhapsody - song facts",
                "https://music.example.com/songs/bohemian-rhapsody",
                "Bohemian Rhapsody was written by Freddie Mercury for Queen's 1975 "
                "album A Night at the Opera.",
                page(
                    "Bohemian Rhapsody",
                    "<p>Bohemian Rhapsody is a song by the British rock band Queen. It was written by "
                    "Freddie Mercury for the band's 1975 album A Night at the Opera.</p>"
                    "<p>The six-minute single has no chorus and moves through ballad, opera and hard rock "
                    "sections.</p>",
                ),
            ),
        ],
    },
    {
        "interaction_id": "sample-08-aggregation",
        "query_time": "03/18/2024, 14:22:09 PT",
        "domain": "music",
        "question_type": "aggregation",
        "static_or_dynamic": "slow-changing",
        "popularity": "torso",
        "query": "how many studio albums did adele release before 2020?",
        "answer": "3",
        "alt_ans": ["three"],
        "search_results": [
            result(
                "Adele discography",
                "https://music.example.com/artists/adele/discography",
                "Adele has released four studio albums: 19, 21, 25 and 30.",
                page(
                    "Adele discography",
                    "<p>The English singer has released four studio albums.</p>"
                    + table(
                        ["Album", "Released", "Label"],
                        [
                            ["19", "28 January 2008", "XL"],
                            ["21", "24 January 2011", "XL"],
                            ["25", "20 November 2015", "XL"],
                            ["30", "19 November 2021", "Columbia"],
                        ],
                    ),
                ),
            ),
        ],
    },
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("sample.jsonl"),
                        help="where to write the sample (default: data/sample.jsonl)")  # fmt: skip
    target = parser.parse_args(argv).out
    with target.open("w", encoding="utf-8") as out:
        for question in QUESTIONS:
            out.write(json.dumps(question, ensure_ascii=False) + "\n")
    print(f"wrote {len(QUESTIONS)} questions to {target}")


if __name__ == "__main__":
    main()
