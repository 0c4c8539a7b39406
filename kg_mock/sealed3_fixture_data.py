"""Hand-written facts of the third sealed KG set (benchmarks/kg_sealed3.py), added to the real-wording
KG's (kg_mock/real_fixture_data.py) when kg_mock.real_fixture builds with `sealed="third"`: one KG
holds the real-wording set and this one, so that the look-alikes of each meet the questions of the
other. Each name here is the name of a table of real_fixture_data: a dict's entries are added (an entry
of the same key replaces the real one, which keeps its facts), a list's and a set's items are appended.

As in kg_mock/sealed_fixture_data.py: real names, the facts the questions ask set so that each gold
answer holds at its question's time (where a gold answer and the world disagree, the gold answer wins),
and look-alikes beside them. Where a look-alike's real facts were not at hand, they are invented (the
films' ids, budgets and ratings, the chart-free songs' days, the bars around the asked ones).

Do not read this file while changing the KG's rules (benchmarks/kg_sealed3.py says why).
"""

from __future__ import annotations

from kg_mock import real_fixture_data

# --- finance ------------------------------------------------------------------------------------------
COMPANIES = {
    "ALBT": ("Avalon GloboCare Corp. Common Stock", 0.36, {"sector": "Healthcare"}),
    "ALBO": ("Albireo Pharma Inc. Common Stock", 43.8, {"sector": "Healthcare"}),
    "SZZL": ("Sizzle Acquisition Corp. Common Stock", 22.6, {"sector": "Financial Services"}),
    "KHC": ("The Kraft Heinz Company Common Stock", 35.74, {"sector": "Consumer Defensive"}),
    "PPG": ("PPG Industries Inc. Common Stock", 141.2, {"sector": "Basic Materials"}),
    "TBMC": (
        "Trailblazer Merger Corporation I Class A Common Stock",
        10.55,
        {"sector": "Financial Services"},
    ),
    "KRKR": ("36Kr Holdings Inc. American Depositary Shares", 0.62, {"sector": "Communication Services"}),
    "MTD": ("Mettler-Toledo International Inc. Common Stock", 1262.0, {"sector": "Healthcare"}),
    "ORMP": ("Oramed Pharmaceuticals Inc. Common Stock", 3.51, {"sector": "Healthcare"}),
    "HOFT": ("Hooker Furnishings Corporation Common Stock", 24.1, {"sector": "Consumer Cyclical"}),
    "BHFAL": (
        "Brighthouse Financial Inc. 6.25% Junior Subordinated Debentures due 2058",
        24.3,
        {"sector": "Financial Services"},
    ),
    "BHF": ("Brighthouse Financial Inc. Common Stock", 47.9, {"sector": "Financial Services"}),
    "NMG": ("Nouveau Monde Graphite Inc. Common Shares", 2.5, {"sector": "Basic Materials"}),
    "BLAC": ("Bellevue Life Sciences Acquisition Corp. Common Stock", 10.8, {"sector": "Financial Services"}),
    "BLACW": ("Bellevue Life Sciences Acquisition Corp. Warrants", 0.02, {"sector": "Financial Services"}),
}
EXTRA_COMPANY_NAMES = {
    "AVAL": "Grupo Aval Acciones y Valores S.A. ADR",
    "PPIH": "Perma-Pipe International Holdings Inc. Common Stock",
    "HOOK": "HOOKIPA Pharma Inc. Common Stock",
}
CALM_TICKERS = {"TBMC", "BHFAL", "BLACW", "BLAC", "SZZL"}
# Bars (open, high, low, close, volume) of the asked days and of the days beside them.
PINNED_BARS = {
    "ALBT": {
        "2024-02-26": (0.34, 0.35, 0.33, 0.34, 210400),
        "2024-02-27": (0.34, 0.35, 0.33, 0.35, 187300),
        "2024-02-28": (0.35, 0.35, 0.34, 0.34, 164800),
        "2024-02-29": (0.34, 0.35, 0.33, 0.33, 198200),
        "2024-03-01": (0.33, 0.34, 0.32, 0.34, 176500),
        "2024-03-04": (0.35, 0.38, 0.34, 0.37, 402100),
        "2024-03-05": (0.37, 0.40, 0.36, 0.39, 655900),
        "2024-03-06": (0.39, 0.39, 0.36, 0.37, 388400),
        "2024-03-07": (0.37, 0.37, 0.35, 0.36, 276300),
        "2024-03-08": (0.36, 0.36, 0.35, 0.35, 241800),
        "2024-03-11": (0.35, 0.35, 0.34, 0.35, 198700),
        "2024-03-12": (0.35, 0.35, 0.33, 0.34, 203300),
    },
    "SZZL": {
        "2024-03-01": (22.10, 22.18, 22.02, 22.12, 3100),
        "2024-03-07": (22.31, 22.44, 22.27, 22.41, 2800),
        "2024-03-08": (22.50, 22.56, 22.39, 22.47, 4200),
        "2024-03-11": (22.47, 22.58, 22.42, 22.52, 1900),
    },
    "KHC": {
        "2024-03-14": (35.61, 35.80, 35.30, 35.52, 6105000),
        "2024-03-15": (35.49, 35.91, 35.40, 35.74, 9811000),
    },
    "PPG": {
        "2024-03-13": (139.65, 141.02, 139.20, 140.38, 1287000),
        "2024-03-14": (140.47, 140.90, 138.62, 139.11, 1412000),
    },
    "TBMC": {
        "2024-03-12": (10.50, 10.52, 10.50, 10.51, 1200),
        "2024-03-13": (10.52, 10.53, 10.52, 10.53, 800),
        "2024-03-14": (10.53, 10.55, 10.53, 10.55, 1500),
    },
    "KRKR": {
        "2024-03-14": (0.63, 0.64, 0.61, 0.62, 131500),
        "2024-03-15": (0.62, 0.63, 0.61, 0.62, 128700),
    },
    "MTD": {
        "2024-02-28": (1201.30, 1209.88, 1193.05, 1204.63, 141200),
        "2024-02-29": (1205.10, 1211.72, 1190.40, 1197.19, 198300),
        "2024-03-01": (1199.90, 1221.37, 1196.25, 1218.54, 167900),
    },
    "ORMP": {
        "2024-03-14": (3.49, 3.52, 3.40, 3.44, 98200),
        "2024-03-15": (3.45, 3.55, 3.43, 3.51, 121400),
    },
    "HOFT": {
        "2024-03-12": (23.71, 23.95, 23.55, 23.82, 52100),
        "2024-03-13": (23.85, 24.12, 23.77, 23.97, 48700),
    },
    # the real-wording set's pinned days of Microsoft, with the days around 9 February
    "MSFT": {
        **real_fixture_data.PINNED_BARS["MSFT"],
        "2024-02-08": (414.05, 415.56, 412.53, 414.11, 21225300),
        "2024-02-09": (415.25, 420.82, 413.84, 420.55, 22032800),
        "2024-02-12": (420.56, 420.74, 414.75, 415.26, 21202900),
    },
    "BHFAL": {
        "2024-03-14": (24.21, 24.30, 24.18, 24.25, 18300),
        "2024-03-15": (24.26, 24.34, 24.22, 24.30, 20700),
    },
    "NMG": {
        "2024-03-11": (2.49, 2.53, 2.44, 2.47, 84100),
        "2024-03-12": (2.47, 2.59, 2.46, 2.56, 112600),
    },
    "BLACW": {
        "2024-03-11": (0.02, 0.02, 0.02, 0.02, 3100),
        "2024-03-12": (0.02, 0.02, 0.01, 0.01, 5200),
        "2024-03-13": (0.01, 0.03, 0.01, 0.03, 4400),
    },
}

# --- movie --------------------------------------------------------------------------------------------
# (title, id, release date, budget, revenue, rating, genres, cast in billing order, crew); the directors
# of many are named once (lower-case: not a table)
_ridley_scott = [("Ridley Scott", "Director")]
_kenny_ortega = [("Kenny Ortega", "Director")]
MOVIES = [
    # Ridley Scott's films beside the real-wording set's The Martian and Gladiator
    ("Alien: Covenant", 126889, "2017-05-09", 97000000, 240891763, 6.1, ["Horror", "Science Fiction"],
     ["Michael Fassbender", "Katherine Waterston", "Billy Crudup"], _ridley_scott),
    ("Exodus: Gods and Kings", 147441, "2014-12-03", 140000000, 268031828, 6.0, ["Adventure", "Drama"],
     ["Christian Bale", "Joel Edgerton", "John Turturro"], _ridley_scott),
    ("Prometheus", 70981, "2012-05-30", 130000000, 403170142, 6.5, ["Science Fiction", "Mystery"],
     ["Noomi Rapace", "Michael Fassbender", "Charlize Theron"], _ridley_scott),
    ("American Gangster", 4982, "2007-11-02", 100000000, 266465037, 7.4, ["Drama", "Crime"],
     ["Denzel Washington", "Russell Crowe", "Chiwetel Ejiofor"], _ridley_scott),
    ("Black Hawk Down", 855, "2001-12-28", 92000000, 172989651, 7.4, ["Action", "History", "War"],
     ["Josh Hartnett", "Ewan McGregor", "Tom Sizemore"], _ridley_scott),
    ("Kingdom of Heaven", 1495, "2005-05-03", 130000000, 211652051, 7.0, ["Drama", "Action", "History"],
     ["Orlando Bloom", "Eva Green", "Jeremy Irons"], _ridley_scott),
    ("Thelma & Louise", 1541, "1991-05-24", 16500000, 45360915, 7.4, ["Drama", "Crime", "Adventure"],
     ["Susan Sarandon", "Geena Davis", "Harvey Keitel"], _ridley_scott),
    ("Alien: Covenant - Prologue: The Crossing", 461955, "2017-03-31", 0, 0, 6.3, ["Science Fiction"],
     ["Noomi Rapace", "Michael Fassbender"], _ridley_scott),
    ("G.I. Jane", 4421, "1997-08-22", 50000000, 48169156, 5.9, ["Action", "Drama"],
     ["Demi Moore", "Viggo Mortensen", "Anne Bancroft"], _ridley_scott),
    ("A Good Year", 9726, "2006-11-09", 35000000, 42064105, 6.8, ["Comedy", "Drama", "Romance"],
     ["Russell Crowe", "Marion Cotillard", "Albert Finney"], _ridley_scott),
    ("The Counselor", 109091, "2013-10-24", 25000000, 71009334, 5.0, ["Thriller", "Crime", "Drama"],
     ["Michael Fassbender", "Penélope Cruz", "Cameron Diaz"], _ridley_scott),
    ("1492: Conquest of Paradise", 1492, "1992-10-09", 47000000, 59000000, 6.4, ["Adventure", "Drama"],
     ["Gérard Depardieu", "Armand Assante", "Sigourney Weaver"], _ridley_scott),
    ("Body of Lies", 12113, "2008-10-10", 70000000, 115097286, 6.6, ["Action", "Drama", "Thriller"],
     ["Leonardo DiCaprio", "Russell Crowe", "Mark Strong"], _ridley_scott),
    ("All the Money in the World", 446791, "2017-12-25", 50000000, 56800000, 6.5, ["Crime", "Drama"],
     ["Michelle Williams", "Christopher Plummer", "Mark Wahlberg"], _ridley_scott),
    ("White Squall", 11062, "1996-02-02", 38000000, 10229331, 6.6, ["Adventure", "Drama"],
     ["Jeff Bridges", "Caroline Goodall", "John Savage"], _ridley_scott),
    ("Matchstick Men", 7270, "2003-09-01", 62000000, 65565672, 7.0, ["Comedy", "Crime", "Drama"],
     ["Nicolas Cage", "Sam Rockwell", "Alison Lohman"], _ridley_scott),
    ("Hannibal", 9740, "2001-02-08", 87000000, 351692268, 6.7, ["Crime", "Drama", "Thriller"],
     ["Anthony Hopkins", "Julianne Moore", "Ray Liotta"], _ridley_scott),
    ("The Last Duel", 617653, "2021-10-13", 100000000, 30552111, 7.5, ["Drama", "History", "Action"],
     ["Matt Damon", "Adam Driver", "Jodie Comer"], _ridley_scott),
    ("House of Gucci", 644495, "2021-11-24", 75000000, 153322074, 6.5, ["Drama", "Crime"],
     ["Lady Gaga", "Adam Driver", "Al Pacino"], _ridley_scott),
    ("Untitled Gladiator Sequel", 558449, "2024-11-13", 0, 0, 0.0, ["Action", "Drama"],
     ["Paul Mescal", "Pedro Pascal"], _ridley_scott),
    # a look-alike: Tony Scott's
    ("Top Gun", 744, "1986-05-16", 15000000, 356830601, 7.0, ["Action", "Drama"],
     ["Tom Cruise", "Kelly McGillis", "Val Kilmer"], [("Tony Scott", "Director")]),
    # Kenny Ortega's films
    ("Descendants 2", 430040, "2017-07-21", 0, 0, 7.1, ["Family", "Fantasy", "Music"],
     ["Dove Cameron", "Cameron Boyce", "Sofia Carson"], _kenny_ortega),
    ("Descendants 3", 506574, "2019-08-02", 0, 0, 7.3, ["Family", "Fantasy", "Music"],
     ["Dove Cameron", "Cameron Boyce", "Sofia Carson"], _kenny_ortega),
    ("Descendants", 277217, "2015-07-31", 0, 0, 7.0, ["Family", "Fantasy", "Music"],
     ["Dove Cameron", "Kristin Chenoweth", "Sofia Carson"], _kenny_ortega),
    ("Hocus Pocus", 10439, "1993-07-16", 28000000, 39514713, 6.8, ["Comedy", "Family", "Fantasy"],
     ["Bette Midler", "Sarah Jessica Parker", "Kathy Najimy"], _kenny_ortega),
    ("High School Musical 2", 13649, "2007-08-17", 7000000, 0, 6.4, ["Comedy", "Family", "Music"],
     ["Zac Efron", "Vanessa Hudgens", "Ashley Tisdale"], _kenny_ortega),
    ("High School Musical", 10947, "2006-01-20", 4200000, 0, 6.6, ["Comedy", "Family", "Music"],
     ["Zac Efron", "Vanessa Hudgens", "Ashley Tisdale"], _kenny_ortega),
    ("High School Musical 3: Senior Year", 11887, "2008-10-22", 11000000, 252909177, 6.4,
     ["Comedy", "Family", "Music"], ["Zac Efron", "Vanessa Hudgens", "Ashley Tisdale"], _kenny_ortega),
    ("The Rocky Horror Picture Show: Let's Do the Time Warp Again", 404020, "2016-10-20", 0, 0, 4.9,
     ["Comedy", "Music"], ["Laverne Cox", "Victoria Justice", "Ryan McCartan"], _kenny_ortega),
    ("The Cheetah Girls 2", 15654, "2006-08-25", 0, 0, 6.0, ["Family", "Music"],
     ["Raven-Symoné", "Adrienne Bailon", "Sabrina Bryan"], _kenny_ortega),
    ("This Is It", 23128, "2009-10-28", 60000000, 261183588, 7.3, ["Documentary", "Music"],
     ["Michael Jackson"], _kenny_ortega),
    ("A Change of Heart", 289720, "1998-09-20", 0, 0, 5.9, ["Drama"],
     ["Jill Clayburgh", "Ed Marinaro"], _kenny_ortega),
    ("Barbra Streisand: Timeless, Live in Concert", 58013, "2001-01-01", 0, 0, 7.2, ["Music"],
     ["Barbra Streisand"], _kenny_ortega),
    # the rest, with the look-alikes
    ("The Switch", 34806, "2010-05-11", 19000000, 49830607, 5.9, ["Comedy", "Romance", "Drama"],
     ["Jennifer Aniston", "Jason Bateman", "Patrick Wilson"], [("Josh Gordon", "Director"),
                                                               ("Will Speck", "Director")]),
    ("Switch", 10993, "1991-05-10", 14000000, 15500000, 5.8, ["Comedy", "Fantasy"],
     ["Ellen Barkin", "Jimmy Smits", "JoBeth Williams"], [("Blake Edwards", "Director")]),
    ("Oliver Twist", 48791, "1999-10-24", 0, 0, 6.6, ["Drama", "Family"],
     ["Robert Lindsay", "Alex Trench", "Ophelia Lovibond"], [("Renny Rye", "Director")]),
    ("Nowhere Boy", 24163, "2009-10-29", 0, 5000000, 7.0, ["Drama", "Music"],
     ["Aaron Taylor-Johnson", "Kristin Scott Thomas", "Ophelia Lovibond"],
     [("Sam Taylor-Johnson", "Director")]),
    ("Mr. Popper's Penguins", 58224, "2011-06-17", 55000000, 187361754, 5.9, ["Comedy", "Family"],
     ["Jim Carrey", "Carla Gugino", "Ophelia Lovibond"], [("Mark Waters", "Director")]),
    ("Kylie Minogue: A Kylie Christmas Live at the Royal Albert Hall", 431540, "2016-11-25", 0, 0, 7.5,
     ["Music"], ["Kylie Minogue"], [("Paul Dugdale", "Director")]),
    ("The Last Resort", 31218, "2009-04-17", 0, 0, 5.2, ["Horror", "Thriller"],
     ["Jay Hindle", "Barbara Nedeljakova"], [("Dan Bunford", "Director")]),
    ("Last Resort", 25636, "2000-09-12", 0, 0, 6.9, ["Drama", "Romance"],
     ["Dina Korzun", "Paddy Considine"], [("Paweł Pawlikowski", "Director")]),
    ("Algae", 734922, "2020-10-02", 0, 0, 6.0, ["Drama"],
     ["Giulia Mancini", "Tommaso Ragno"], [("Sara Fratini", "Director")]),
    ("The Nutcracker and the Four Realms", 338958, "2018-10-26", 120000000, 173961069, 6.1,
     ["Fantasy", "Adventure", "Family"], ["Mackenzie Foy", "Keira Knightley", "Morgan Freeman"],
     [("Lasse Hallström", "Director"), ("Joe Johnston", "Director")]),
    ("Girls' Night Out", 441384, "2017-01-22", 0, 0, 5.4, ["Thriller", "TV Movie"],
     ["Hanna Jokela", "Kathryn Kohut"], [("Justin G. Dyck", "Director")]),
    ("Girls Trip", 417870, "2017-07-21", 19000000, 140940865, 6.3, ["Comedy"],
     ["Regina Hall", "Queen Latifah", "Tiffany Haddish"], [("Malcolm D. Lee", "Director")]),
    ("Deadpool 2", 383498, "2018-05-10", 110000000, 785896609, 7.5, ["Action", "Comedy", "Adventure"],
     ["Ryan Reynolds", "Josh Brolin", "Morena Baccarin"], [("David Leitch", "Director")]),
    ("Deadpool", 293660, "2016-02-09", 58000000, 783100000, 7.6, ["Action", "Adventure", "Comedy"],
     ["Ryan Reynolds", "Morena Baccarin", "Ed Skrein"], [("Tim Miller", "Director")]),
    ("Skyfall", 37724, "2012-10-24", 200000000, 1108561013, 7.2, ["Action", "Adventure", "Thriller"],
     ["Daniel Craig", "Judi Dench", "Javier Bardem"], [("Sam Mendes", "Director")]),
    ("John Wick: Chapter 4", 603692, "2023-03-22", 90000000, 440157245, 7.7, ["Action", "Thriller"],
     ["Keanu Reeves", "Donnie Yen", "Bill Skarsgård"], [("Chad Stahelski", "Director")]),
]  # fmt: skip
ACTRESSES = {
    "Katherine Waterston", "Noomi Rapace", "Charlize Theron", "Eva Green", "Susan Sarandon", "Geena Davis",
    "Demi Moore", "Anne Bancroft", "Marion Cotillard", "Penélope Cruz", "Cameron Diaz", "Sigourney Weaver",
    "Michelle Williams", "Caroline Goodall", "Alison Lohman", "Julianne Moore", "Jodie Comer", "Lady Gaga",
    "Kelly McGillis", "Dove Cameron", "Sofia Carson", "Kristin Chenoweth", "Bette Midler",
    "Sarah Jessica Parker", "Kathy Najimy", "Vanessa Hudgens", "Ashley Tisdale", "Laverne Cox",
    "Victoria Justice", "Raven-Symoné", "Adrienne Bailon", "Sabrina Bryan", "Jill Clayburgh",
    "Barbra Streisand", "Jennifer Aniston", "Ellen Barkin", "JoBeth Williams", "Ophelia Lovibond",
    "Kristin Scott Thomas", "Carla Gugino", "Kylie Minogue", "Barbara Nedeljakova", "Dina Korzun",
    "Giulia Mancini", "Mackenzie Foy", "Keira Knightley", "Hanna Jokela", "Kathryn Kohut", "Regina Hall",
    "Queen Latifah", "Tiffany Haddish", "Morena Baccarin", "Judi Dench",
}  # fmt: skip
# Algae: an invented Italian original title (the film's real facts were not at hand).
ORIGINAL_TITLES = {"Algae": "Alghe"}
ORIGINAL_LANGUAGES = {"Algae": "it"}
CHARACTERS = {
    ("Skyfall", "Daniel Craig"): "James Bond",
    ("Skyfall", "Judi Dench"): "M",
    ("Skyfall", "Javier Bardem"): "Raoul Silva",
    ("John Wick: Chapter 4", "Keanu Reeves"): "John Wick",
    ("Deadpool 2", "Ryan Reynolds"): "Wade Wilson / Deadpool",
}
EXTRA_PEOPLE = {"Chuck Bowman": "1937-06-02", "Chuck Norris": "1940-03-10"}
OSCARS = [
    (2021, 93, "DOCUMENTARY (Feature)", "Pippa Ehrlich, James Reed and Craig Foster", "My Octopus Teacher",
     True),
    (2021, 93, "DOCUMENTARY (Feature)", "Alexander Nanau, Bianca Oana", "Collective", False),
    (2021, 93, "DOCUMENTARY (Feature)", "Nicole Newnham, Jim LeBrecht and Sara Bolder", "Crip Camp", False),
    (2021, 93, "DOCUMENTARY (Feature)", "Maite Alberdi, Marcela Santibáñez", "The Mole Agent", False),
    (2021, 93, "DOCUMENTARY (Feature)", "Garrett Bradley, Lauren Domino and Kellen Quinn", "Time", False),
    (2021, 93, "DOCUMENTARY (Short Subject)", "Anthony Giacchino, Alice Doyard", "Colette", True),
    (2020, 92, "DOCUMENTARY (Feature)", "Steven Bognar, Julia Reichert and Jeff Reichert", "American Factory",
     True),
    (2012, 84, "DOCUMENTARY (Feature)", "Daniel Lindsay, T.J. Martin and Rich Middlemas", "Undefeated",
     True),
    (2012, 84, "DOCUMENTARY (Feature)", "Wim Wenders, Gian-Piero Ringel", "Pina", False),
    (2012, 84, "DOCUMENTARY (Feature)", "Joe Berlinger, Bruce Sinofsky",
     "Paradise Lost 3: Purgatory", False),
    (2013, 85, "DOCUMENTARY (Feature)", "Malik Bendjelloul, Simon Chinn", "Searching for Sugar Man", True),
    (2011, 83, "DOCUMENTARY (Feature)", "Charles Ferguson, Audrey Marrs", "Inside Job", True),
    (2001, 73, "VISUAL EFFECTS", "John Nelson, Neil Corbould, Tim Burke and Rob Harvey", "Gladiator", True),
    (2001, 73, "VISUAL EFFECTS", "Stefen Fangmeier, Habib Zargarpour, John Frazier and Walt Conti",
     "The Perfect Storm", False),
    (2001, 73, "VISUAL EFFECTS", "Scott E. Anderson, Craig Hayes, Scott Stokdyk and Stan Parks",
     "Hollow Man", False),
    (2000, 72, "VISUAL EFFECTS", "John Gaeta, Janek Sirrs, Steve Courtley and Jon Thum", "The Matrix", True),
    (2002, 74, "VISUAL EFFECTS", "Jim Rygiel, Randall William Cook, Richard Taylor and Mark Stetson",
     "The Lord of the Rings: The Fellowship of the Ring", True),
    (2014, 86, "ANIMATED FEATURE FILM", "Chris Buck, Jennifer Lee and Peter Del Vecho", "Frozen", True),
    (2014, 86, "ANIMATED FEATURE FILM", "Chris Meledandri, Janet Healy", "Despicable Me 2", False),
    (2014, 86, "ANIMATED FEATURE FILM", "Hayao Miyazaki, Toshio Suzuki", "The Wind Rises", False),
    (2015, 87, "ANIMATED FEATURE FILM", "Don Hall, Chris Williams and Roy Conli", "Big Hero 6", True),
    (2013, 85, "ANIMATED FEATURE FILM", "Mark Andrews, Brenda Chapman", "Brave", True),
    (2015, 87, "VISUAL EFFECTS", "Dan DeLeeuw, Russell Earl, Bryan Grill and Dan Sudick",
     "Captain America: The Winter Soldier", False),
    (2015, 87, "VISUAL EFFECTS", "Joe Letteri, Dan Lemmon, Daniel Barrett and Erik Winquist",
     "Dawn of the Planet of the Apes", False),
    (2014, 86, "VISUAL EFFECTS", "Tim Webber, Chris Lawrence, Dave Shirk and Neil Corbould", "Gravity",
     True),
]  # fmt: skip

# --- music --------------------------------------------------------------------------------------------
# artist: (country, birth or founding date, end date, members, works)
ARTISTS: dict[str, tuple[str, str, str | None, list[str], list[str]]] = {
    "Ludwig van Beethoven": ("DE", "1770-12-16", "1827-03-26", [], ["Für Elise", "Moonlight Sonata"]),
    "Ludwig Göransson": ("SE", "1984-09-01", None, [], ["Oppenheimer"]),
    "Lady Gaga": (
        "US",
        "1986-03-28",
        None,
        [],
        ["Just Dance", "Red and Blue", "Poker Face", "Christmas Tree", "Bad Romance", "Shallow"],
    ),
    "Thoinot Arbeau": (
        "FR",
        "1520-03-17",
        "1595-07-23",
        [],
        ["Orchesographie, 1589 (Florilegio Ensemble feat. director: Marcello Serafini)"],
    ),
    "Justin Timberlake": (
        "US",
        "1981-01-31",
        None,
        [],
        [
            "Justified",
            "FutureSex/LoveSounds",
            "The 20/20 Experience",
            "Man of the Woods",
            "Everything I Thought It Was",
        ],
    ),
}
# song: (performing artist, author, country, release date)
SONGS = {
    "Für Elise": ("Ludwig van Beethoven", "Ludwig van Beethoven", "DE", "1998-05-12"),
    "Moonlight Sonata": ("Ludwig van Beethoven", "Ludwig van Beethoven", "DE", "2001-09-03"),
    "Oppenheimer": ("Ludwig Göransson", "Ludwig Göransson", "SE", "2023-07-21"),
    "Red and Blue": ("Lady Gaga", "Lady Gaga", "US", "2006-09-23"),
    "Just Dance": ("Lady Gaga Featuring Colby O'Donis", "Lady Gaga, RedOne, Akon", "US", "2008-04-08"),
    "Poker Face": ("Lady Gaga", "Lady Gaga, RedOne", "US", "2008-09-26"),
    "Christmas Tree": (
        "Lady Gaga Featuring Space Cowboy",
        "Lady Gaga, Space Cowboy, Martin Kierszenbaum",
        "US",
        "2008-12-16",
    ),
    "Bad Romance": ("Lady Gaga", "Lady Gaga, RedOne", "US", "2009-10-26"),
    "Shallow": ("Lady Gaga & Bradley Cooper", "Lady Gaga, Mark Ronson, Anthony Rossomando, Andrew Wyatt",
                "US", "2018-09-27"),
    "Orchesographie, 1589 (Florilegio Ensemble feat. director: Marcello Serafini)": (
        "Thoinot Arbeau",
        "Thoinot Arbeau",
        "IT",
        "2013-02-05",
    ),
    "Justified": ("Justin Timberlake", "Justin Timberlake", "US", "2002-11-05"),
    "FutureSex/LoveSounds": ("Justin Timberlake", "Justin Timberlake, Timbaland", "US", "2006-09-12"),
    "The 20/20 Experience": ("Justin Timberlake", "Justin Timberlake, Timbaland", "US", "2013-03-15"),
    "Man of the Woods": ("Justin Timberlake", "Justin Timberlake", "US", "2018-02-02"),
    "Everything I Thought It Was": ("Justin Timberlake", "Justin Timberlake", "US", "2024-03-15"),
}  # fmt: skip

# --- sports -------------------------------------------------------------------------------------------
# A team's games of a month generated to fixed facts (kg_mock.real_fixture_data.NBA_TEAM_MONTHS): the
# month's points in all are the gold answers.
NBA_TEAM_MONTHS = {
    ("Dallas Mavericks", "2022-01"): {
        "games": 15,
        "beaten_by": ["Denver Nuggets", "Golden State Warriors", "Minnesota Timberwolves", "Phoenix Suns"],
        "points": 1720,
    },
    ("Charlotte Hornets", "2022-12"): {
        "games": 16,
        "beaten_by": [
            "Atlanta Hawks", "Cleveland Cavaliers", "Golden State Warriors", "Milwaukee Bucks",
            "New York Knicks", "Philadelphia 76ers", "Sacramento Kings",
        ],
        "points": 1825,
    },
}  # fmt: skip
SOCCER_GAMES = [
    ("FRA-Ligue 1", "2024-03-10", "Clermont Foot", "Nantes", 1, 1, None),
    ("FRA-Ligue 1", "2024-03-09", "Paris S-G", "Monaco", 2, 0, None),
]
SOCCER_CAPTAINS = {"Nantes": "Nicolas Pallois", "Monaco": "Wissam Ben Yedder", "Rennes": "Steve Mandanda"}
