"""Hand-written facts of the second sealed KG set (benchmarks/kg_sealed2.py), added to the real-wording
KG's (kg_mock/real_fixture_data.py) when kg_mock.real_fixture builds with `sealed="second"`: one KG
holds the real-wording set and this one, so that the look-alikes of each meet the questions of the
other. Each name here is the name of a table of real_fixture_data: a dict's entries are added (an entry
of the same key replaces the real one, which keeps its facts), a list's and a set's items are appended.

As in kg_mock/sealed_fixture_data.py: real names, the facts the questions ask set so that each gold
answer holds at its question's time (where a gold answer and the world disagree, the gold answer wins),
and look-alikes beside them. Where a look-alike's real facts were not at hand, they are invented.

Do not read this file while changing the KG's rules (benchmarks/kg_sealed2.py says why).
"""

from __future__ import annotations

from kg_mock import real_fixture_data

# --- finance ------------------------------------------------------------------------------------------
COMPANIES = {
    "TGS": ("Transportadora de Gas del Sur SA", 13.27, {"sector": "Energy"}),
    "PAM": ("Pampa Energia S.A.", 44.1, {"sector": "Utilities"}),
    "STK": ("Columbia Seligman Premium Technology Growth Fund Inc", 31.2, {"sector": "Financial Services"}),
    "STKS": ("The ONE Group Hospitality Inc. Common Stock", 5.8, {"sector": "Consumer Cyclical"}),
    "WNW": ("Meiwu Technology Company Limited Ordinary Shares", 1.2, {"sector": "Consumer Cyclical"}),
    "GNE": (
        "Genie Energy Ltd. Class B Common Stock",
        15.4,
        {"sector": "Utilities", "forwardPE": 39.07, "trailingPE": 7.91},
    ),
    "GNK": (
        "Genco Shipping & Trading Limited Ordinary Shares",
        21.3,
        {"sector": "Industrials", "forwardPE": 8.42, "trailingPE": 40.2},
    ),
    "SIG": ("Signet Jewelers Limited Common Shares", 100.5, {"sector": "Consumer Cyclical"}),
    "SIGI": ("Selective Insurance Group Inc. Common Stock", 103.2, {"sector": "Financial Services"}),
    "NTR": (
        "Nutrien Ltd. Common Shares",
        53.1,
        {"sector": "Basic Materials", "forwardPE": 11.85, "trailingPE": 21.3},
    ),
    "NTRS": (
        "Northern Trust Corporation Common Stock",
        85.6,
        {"sector": "Financial Services", "forwardPE": 13.91, "trailingPE": 19.4},
    ),
    "PI": ("Impinj Inc. Common Stock", 103.0, {"sector": "Technology"}),
    "WSBC": ("WesBanco Inc. Common Stock", 29.5, {"sector": "Financial Services"}),
    "WSFS": ("WSFS Financial Corporation Common Stock", 44.3, {"sector": "Financial Services"}),
    "ADSK": ("Autodesk Inc. Common Stock", 255.0, {"sector": "Technology", "debtToEquity": 179.43}),
    "CDW": ("CDW Corporation Common Stock", 244.0, {"sector": "Technology", "debtToEquity": 307.12}),
    "GLADZ": ("Gladstone Capital Corporation 7.75% Notes due 2028", 25.1, {"sector": "Financial Services"}),
    "GLAD": ("Gladstone Capital Corporation Common Stock", 21.0, {"sector": "Financial Services"}),
    "AVGO": ("Broadcom Inc. Common Stock", 1290.16, {"sector": "Technology"}),
    "CMND": ("Clearmind Medicine Inc. Common Shares", 2.2, {"sector": "Healthcare"}),
    "EDBL": ("Edible Garden AG Incorporated Common Stock", 0.39, {"sector": "Consumer Defensive"}),
    "GLPI": ("Gaming and Leisure Properties Inc. Common Stock", 44.81, {"sector": "Real Estate"}),
    "REG": ("Regency Centers Corporation Common Stock", 58.9, {"sector": "Real Estate"}),
}
EXTRA_COMPANY_NAMES = {
    "TGLS": "Tecnoglass Inc. Ordinary Shares",
    "STKL": "SunOpta Inc. Common Shares",
    "WNC": "Wabash National Corporation Common Stock",
    "RGC": "Regencell Bioscience Holdings Limited Ordinary Shares",
    "CMMB": "Chemomab Therapeutics Ltd. American Depositary Share",
}
CALM_TICKERS = {"GLADZ"}
MARKET_CAPS = {"STK": 73000, "STKS": 252000000, "WSBC": 1694631923.75, "WSFS": 2702000000}
PINNED_BARS = {
    "TGS": {
        "2024-03-14": (13.05, 13.31, 12.98, 13.12, 310200),
        "2024-03-15": (13.14, 13.42, 13.08, 13.27, 287400),
    },
    "WNW": {
        "2024-03-12": (1.31, 1.33, 1.21, 1.22, 58300),
        "2024-03-13": (1.22, 1.27, 1.19, 1.24, 47100),
        "2024-03-14": (1.25, 1.29, 1.18, 1.19, 52900),
    },
    "SIG": {
        "2024-03-08": (104.90, 107.30, 104.20, 106.80, 1204000),
        "2024-03-11": (106.50, 107.90, 105.51, 107.20, 988000),
        "2024-03-12": (107.40, 109.10, 106.30, 108.60, 1101000),
    },
    "PI": {
        "2024-03-13": (101.20, 103.50, 100.80, 102.90, 301000),
        "2024-03-14": (102.87, 104.12, 101.95, 103.40, 287500),
    },
    "GLADZ": {
        "2024-03-05": (25.04, 25.08, 24.98, 25.02, 4100),
        "2024-03-12": (25.10, 25.14, 25.05, 25.11, 3800),
    },
    "GLAD": {"2024-03-12": (20.62, 20.81, 20.55, 20.74, 188000)},
    "AVGO": {
        "2024-03-14": (1291.50, 1306.20, 1275.30, 1283.40, 3120000),
        "2024-03-15": (1279.00, 1298.70, 1262.10, 1290.16, 4480000),
    },
    "EDBL": {
        "2024-03-01": (0.48, 0.49, 0.45, 0.47, 310000),
        "2024-03-08": (0.44, 0.45, 0.41, 0.42, 265000),
        "2024-03-15": (0.40, 0.41, 0.38, 0.39, 402000),
    },
    "GLPI": {
        "2024-03-13": (44.90, 45.10, 44.30, 44.62, 1320000),
        "2024-03-14": (44.60, 44.90, 44.20, 44.55, 1180000),
        "2024-03-15": (44.50, 45.00, 44.40, 44.81, 1405000),
    },
}
# Regency Centers: the KG holds one payment in the year before the questions' time (the gold answer's
# total); the year before it, four.
DIVIDENDS = {
    "REG": {
        "2022-03-15": 0.625,
        "2022-06-14": 0.625,
        "2022-09-14": 0.65,
        "2022-12-14": 0.65,
        "2023-06-14": 0.37,
    },
    "GLPI": {"2023-09-15": 0.73, "2023-12-08": 0.76, "2024-03-08": 0.76},
}

# --- movie --------------------------------------------------------------------------------------------
MOVIES = [
    (
        "Annie",
        15739,
        "1982-05-21",
        50000000,
        57059003,
        6.5,
        ["Family", "Comedy", "Drama", "Music"],
        ["Aileen Quinn", "Albert Finney", "Carol Burnett", "Tim Curry"],
        [("John Huston", "Director")],
    ),
    (
        "Annie Hall",
        703,
        "1977-04-19",
        4000000,
        38251425,
        7.8,
        ["Comedy", "Drama", "Romance"],
        ["Woody Allen", "Diane Keaton", "Tony Roberts"],
        [("Woody Allen", "Director")],
    ),
    (
        "Jane Austen's Mafia!",
        9835,
        "1998-07-24",
        10000000,
        19843795,
        5.4,
        ["Comedy", "Crime"],
        ["Jay Mohr", "Billy Burke", "Christina Applegate", "Lloyd Bridges"],
        [("Jim Abrahams", "Director")],
    ),
    (
        "Mafioso",
        20239,
        "1962-12-15",
        0,
        0,
        7.3,
        ["Comedy", "Drama", "Crime"],
        ["Alberto Sordi", "Norma Bengell"],
        [("Alberto Lattuada", "Director")],
    ),
    (
        "The Pact",
        84185,
        "2012-07-06",
        400000,
        4100000,
        5.8,
        ["Horror", "Mystery"],
        ["Caity Lotz", "Casper Van Dien", "Agnes Bruckner", "Haley Hudson"],
        [("Nicholas McCarthy", "Director")],
    ),
    (
        "The Pact II",
        253306,
        "2014-09-05",
        0,
        0,
        5.0,
        ["Horror", "Thriller"],
        ["Camilla Luddington", "Caity Lotz", "Scott Michael Foster", "Patrick Fischler"],
        [("Patrick Horvath", "Director"), ("Dallas Richard Hallam", "Screenplay")],
    ),
    (
        "El pacto",
        503919,
        "2018-08-24",
        0,
        0,
        5.6,
        ["Thriller", "Horror"],
        ["Belén Rueda", "Darío Grandinetti", "Mireia Oriol"],
        [("David Victori", "Director")],
    ),
    (
        "Song of Hiawatha",
        61784,
        "1997-02-23",
        0,
        0,
        5.8,
        ["Drama", "Family"],
        ["Graham Greene", "Litefoot", "Irene Bedard"],
        [("Jeffrey Shore", "Director")],
    ),
    (
        "Hiawatha",
        101185,
        "1952-12-28",
        0,
        0,
        5.2,
        ["Adventure", "Western"],
        ["Vincent Edwards", "Yvette Duguay", "Keith Larsen"],
        [("Kurt Neumann", "Director")],
    ),
    (
        "The Great Gatsby",
        64682,
        "2013-05-10",
        105000000,
        353641895,
        7.3,
        ["Drama", "Romance"],
        ["Leonardo DiCaprio", "Carey Mulligan", "Joel Edgerton", "Tobey Maguire"],
        [("Baz Luhrmann", "Director")],
    ),
    (
        "Luther",
        11999,
        "2003-10-30",
        30000000,
        29000000,
        6.6,
        ["Drama", "History"],
        ["Joseph Fiennes", "Alfred Molina", "Peter Ustinov"],
        [("Eric Till", "Director")],
    ),
]
ACTRESSES = {
    "Aileen Quinn",
    "Carol Burnett",
    "Diane Keaton",
    "Christina Applegate",
    "Norma Bengell",
    "Caity Lotz",
    "Agnes Bruckner",
    "Haley Hudson",
    "Camilla Luddington",
    "Belén Rueda",
    "Mireia Oriol",
    "Irene Bedard",
    "Yvette Duguay",
    "Carey Mulligan",
}
ORIGINAL_TITLES = {"Mafioso": "Il mafioso", "El pacto": "El pacto"}
ORIGINAL_LANGUAGES = {"Mafioso": "it", "El pacto": "es"}
EXTRA_PEOPLE = {"Eric Till": "1929-07-24"}
OSCARS = [
    (
        2011,
        83,
        "VISUAL EFFECTS",
        "Chris Corbould, Andrew Lockley, Pete Bebb and Paul Franklin",
        "Inception",
        True,
    ),
    (
        2011,
        83,
        "VISUAL EFFECTS",
        "Ken Ralston, David Schaub, Carey Villegas and Sean Phillips",
        "Alice in Wonderland",
        False,
    ),
    (
        2011,
        83,
        "VISUAL EFFECTS",
        "Tim Burke, John Richardson, Christian Manz and Nicolas Aithadi",
        "Harry Potter and the Deathly Hallows: Part 1",
        False,
    ),
    (
        2011,
        83,
        "VISUAL EFFECTS",
        "Michael Owens, Bryan Grill, Stephan Trojanski and Joe Farrell",
        "Hereafter",
        False,
    ),
    (2011, 83, "VISUAL EFFECTS", "Janek Sirrs, Ben Snow, Ged Wright and Daniel Sudick", "Iron Man 2", False),
    (2012, 84, "VISUAL EFFECTS", "Rob Legato, Joss Williams, Ben Grossman and Alex Henning", "Hugo", True),
    (
        2012,
        84,
        "VISUAL EFFECTS",
        "Joe Letteri, Dan Lemmon, R. Christopher White and Daniel Barrett",
        "Rise of the Planet of the Apes",
        False,
    ),
    (
        1994,
        66,
        "VISUAL EFFECTS",
        "Dennis Muren, Stan Winston, Phil Tippett and Michael Lantieri",
        "Jurassic Park",
        True,
    ),
    (
        1994,
        66,
        "VISUAL EFFECTS",
        "Neil Krepela, John Richardson, John Bruno and Pamela Easley",
        "Cliffhanger",
        False,
    ),
    (
        1994,
        66,
        "VISUAL EFFECTS",
        "Pete Kozachik, Eric Leighton, Ariel Velasco Shaw and Gordon Baker",
        "The Nightmare Before Christmas",
        False,
    ),
    (
        1995,
        67,
        "VISUAL EFFECTS",
        "Ken Ralston, George Murphy, Stephen Rosenbaum and Allen Hall",
        "Forrest Gump",
        True,
    ),
    (
        1993,
        65,
        "VISUAL EFFECTS",
        "Ken Ralston, Doug Chiang, Doug Smythe and Tom Woodruff, Jr.",
        "Death Becomes Her",
        True,
    ),
    (2015, 87, "ACTOR IN A LEADING ROLE", "Eddie Redmayne", "The Theory of Everything", True),
    (2015, 87, "ACTOR IN A LEADING ROLE", "Steve Carell", "Foxcatcher", False),
    (2015, 87, "ACTOR IN A LEADING ROLE", "Bradley Cooper", "American Sniper", False),
    (2015, 87, "ACTOR IN A LEADING ROLE", "Benedict Cumberbatch", "The Imitation Game", False),
    (2015, 87, "ACTOR IN A LEADING ROLE", "Michael Keaton", "Birdman", False),
    (2015, 87, "ACTRESS IN A LEADING ROLE", "Julianne Moore", "Still Alice", True),
    (2021, 93, "ACTOR IN A LEADING ROLE", "Anthony Hopkins", "The Father", True),
    (2021, 93, "ACTOR IN A LEADING ROLE", "Riz Ahmed", "Sound of Metal", False),
    (2021, 93, "ACTOR IN A LEADING ROLE", "Chadwick Boseman", "Ma Rainey's Black Bottom", False),
    (2021, 93, "ACTOR IN A LEADING ROLE", "Gary Oldman", "Mank", False),
    (2021, 93, "ACTOR IN A LEADING ROLE", "Steven Yeun", "Minari", False),
    (2021, 93, "ACTRESS IN A LEADING ROLE", "Frances McDormand", "Nomadland", True),
    (2019, 91, "ACTOR IN A LEADING ROLE", "Rami Malek", "Bohemian Rhapsody", True),
    (2019, 91, "ACTOR IN A LEADING ROLE", "Christian Bale", "Vice", False),
    (1991, 63, "ACTOR IN A LEADING ROLE", "Jeremy Irons", "Reversal of Fortune", True),
    (1991, 63, "ACTOR IN A LEADING ROLE", "Kevin Costner", "Dances with Wolves", False),
    (1991, 63, "ACTOR IN A LEADING ROLE", "Robert De Niro", "Awakenings", False),
    (1991, 63, "ACTOR IN A LEADING ROLE", "Gérard Depardieu", "Cyrano de Bergerac", False),
    (1991, 63, "ACTOR IN A LEADING ROLE", "Richard Harris", "The Field", False),
    (1992, 64, "ACTOR IN A LEADING ROLE", "Anthony Hopkins", "The Silence of the Lambs", True),
]

# --- music --------------------------------------------------------------------------------------------
# artist: (country, birth or founding date, end date, members, works)
ARTISTS = {
    # the real-wording set's Beatles, with more of their works
    "The Beatles": (
        *real_fixture_data.ARTISTS["The Beatles"][:4],
        [
            *real_fixture_data.ARTISTS["The Beatles"][4],
            "Yesterday",
            "Help!",
            "Come Together",
            "Something",
            "Here Comes the Sun",
            "Twist and Shout",
        ],
    ),
    "Justin Timberlake": (
        "US",
        "1981-01-31",
        None,
        [],
        ["Cry Me a River", "SexyBack", "Mirrors", "Can't Stop the Feeling!", "Suit & Tie"],
    ),
    # the works of 2023 as the gold answer counts them (six); their titles and days are partly invented
    "Kanye West": (
        "US",
        "1977-06-08",
        None,
        [],
        [
            "Stronger",
            "Power",
            "Famous",
            "Hurricane",
            "Eazy",
            "Vultures",
            "Talking",
            "Burn",
            "Keys to My Life",
            "Paid",
            "Back to Me",
        ],
    ),
    "My Chemical Romance": (
        "US",
        "2001",
        None,
        [
            "Gerard Way",
            "Mikey Way",
            "Ray Toro",
            "Frank Iero",
            "Matt Pelissier",
            "Bob Bryar",
            "James Dewees",
        ],
        ["Helena", "Welcome to the Black Parade", "Famous Last Words"],
    ),
    "Pencey Prep": (
        "US",
        "1998",
        "2001",
        ["Frank Iero", "John McGuire", "Shaun Simon", "Tim Hagevik"],
        ["Heaven Help You"],
    ),
    "Backstreet Boys": (
        "US",
        "1993",
        None,
        ["AJ McLean", "Howie Dorough", "Nick Carter", "Kevin Richardson", "Brian Littrell"],
        ["I Want It That Way", "Everybody (Backstreet's Back)", "As Long as You Love Me"],
    ),
    "Nick Carter": ("US", "1980-01-28", None, [], ["Help Me"]),
}
# song: (performing artist, author, country, release date)
SONGS = {
    "Stronger": ("Kanye West", "Kanye West, Daft Punk", "US", "2007-07-31"),
    "Power": ("Kanye West", "Kanye West, Jeff Bhasker, Malik Jones", "US", "2010-07-01"),
    "Famous": ("Kanye West Featuring Rihanna", "Kanye West, Rihanna, Swizz Beatz", "US", "2016-03-28"),
    "Hurricane": ("Kanye West", "Kanye West, The Weeknd, Lil Baby", "US", "2021-08-29"),
    "Eazy": ("Kanye West & The Game", "Kanye West, The Game", "US", "2022-01-15"),
    "Vultures": ("Kanye West & Ty Dolla $ign", "Kanye West, Ty Dolla $ign, Bump J", "US", "2023-11-17"),
    "Talking": ("Kanye West", "Kanye West, North West", "US", "2023-12-16"),
    "Burn": ("Kanye West", "Kanye West, Ty Dolla $ign", "US", "2023-12-16"),
    "Keys to My Life": ("Kanye West", "Kanye West, India Love", "US", "2023-12-16"),
    "Paid": ("Kanye West", "Kanye West, Ty Dolla $ign", "US", "2023-12-16"),
    "Back to Me": ("Kanye West", "Kanye West, Freddie Gibbs", "US", "2023-12-16"),
    "Cry Me a River": ("Justin Timberlake", "Justin Timberlake, Timbaland, Scott Storch", "US", "2002-11-25"),
    "SexyBack": ("Justin Timberlake", "Justin Timberlake, Timbaland, Nate Hills", "US", "2006-07-18"),
    "Help Me": ("Nick Carter", "Nick Carter", "US", "2002-01-28"),
}

# --- sports -------------------------------------------------------------------------------------------
# The international break of March 2024: no league plays the round of this Saturday's week.
SOCCER_BREAKS = ["2024-03-23"]
SOCCER_GAMES = [
    ("FRA-Ligue 1", "2024-03-08", "Nice", "Le Havre", 1, 1, None),
    ("FRA-Ligue 1", "2024-03-16", "Toulouse", "Nice", 1, 2, None),
    ("FRA-Ligue 1", "2024-03-10", "Lyon", "Rennes", 1, 0, None),
    ("ESP-La Liga", "2024-03-04", "Atlético Madrid", "Betis", 2, 1, None),
    ("ESP-La Liga", "2024-03-17", "Atlético Madrid", "Barcelona", 0, 3, None),
]
