"""Hand-written facts of the fixture KG (all invented, names of real NBA/EPL clubs and Apple aside).
`kg_mock.fixture` turns them, plus seeded filler (prices, charts, schedules, extra names), into the
official on-disk layout. Tests and benchmarks/kg_questions.jsonl rely on these facts: change with care.
"""

from __future__ import annotations

# --- finance ------------------------------------------------------------------------------------------
# The last trading day of the data is Friday 2024-03-08: daily bars cover the year before it,
# one-minute bars the five trading days 2024-03-04..08.
LAST_TRADING_DAY = "2024-03-08"

# ticker: company-table name, anchor close (the price level the seeded walk starts from), info record.
COMPANIES = {
    "ZPHR": ("Zephyrline Robotics Inc. Common Stock", 48.2, {
        "shortName": "Zephyrline Robotics", "exchange": "NMS", "sector": "Industrials",
        "industry": "Specialty Industrial Machinery", "fullTimeEmployees": 6120, "city": "Pittsburgh",
        "country": "United States", "marketCap": 8412000000, "trailingEps": 1.87, "trailingPE": 26.37,
        "forwardEps": 1.87, "forwardPE": 26.37, "fiftyTwoWeekHigh": 52.4, "fiftyTwoWeekLow": 28.15, "beta": 1.42,
        "longBusinessSummary": "Zephyrline Robotics designs warehouse picking robots and their fleet software."}),
    "AAPL": ("Apple Inc. Common Stock", 174.7, {
        "shortName": "Apple Inc.", "exchange": "NMS", "sector": "Technology", "industry": "Consumer Electronics",
        "fullTimeEmployees": 161000, "city": "Cupertino", "country": "United States", "marketCap": 2632000000000,
        "trailingEps": 6.43, "trailingPE": 26.5, "forwardEps": 6.43, "forwardPE": 26.5,
        "fiftyTwoWeekHigh": 199.62, "fiftyTwoWeekLow": 150.02, "beta": 1.29}),
    "QMTX": ("Quantamatrix Holdings Corp. Class A Common Stock", 13.75, {
        "shortName": "Quantamatrix Holdings", "exchange": "NYQ", "sector": "Technology",
        "industry": "Software - Infrastructure", "fullTimeEmployees": 840, "marketCap": 615400000,
        "trailingEps": -0.42, "forwardEps": -0.42}),
    "NWRB": ("Northwind Robotics Corp. Common Stock", 58.1, {
        "shortName": "Northwind Robotics", "exchange": "NMS", "sector": "Industrials",
        "industry": "Farm & Heavy Construction Machinery", "fullTimeEmployees": 2310, "city": "Minneapolis",
        "country": "United States", "marketCap": 3187000000, "trailingEps": 2.05, "trailingPE": 28.34,
        "forwardEps": 2.41, "forwardPE": 24.11, "beta": 1.18,
        "longBusinessSummary": "Northwind Robotics builds autonomous tractors and orchard harvesters."}),
    "BWEC": ("Brightwater Energy Corporation Common Stock", 36.4, {
        "shortName": "Brightwater Energy", "exchange": "NYQ", "sector": "Utilities",
        "industry": "Utilities - Renewable", "fullTimeEmployees": 4480, "city": "Denver",
        "country": "United States", "marketCap": 12950000000, "trailingEps": 2.12, "trailingPE": 17.17,
        "forwardEps": 2.3, "forwardPE": 15.83, "dividendRate": 1.44, "beta": 0.61,
        "longBusinessSummary": "Brightwater Energy operates wind and hydro plants in the Mountain West."}),
    "CRVN": ("Corvane Pharmaceuticals Inc. Common Stock", 91.3, {
        "shortName": "Corvane Pharmaceuticals", "exchange": "NMS", "sector": "Healthcare",
        "industry": "Drug Manufacturers - Specialty & Generic", "fullTimeEmployees": 1290, "city": "Cambridge",
        "country": "United States", "marketCap": 7730000000, "trailingEps": -1.35, "forwardEps": 0.88,
        "forwardPE": 103.75, "beta": 0.95,
        "longBusinessSummary": "Corvane Pharmaceuticals develops treatments for rare liver diseases."}),
    "LMRA": ("Lumora Foods Inc. Common Stock", 27.85, {
        "shortName": "Lumora Foods", "exchange": "NYQ", "sector": "Consumer Defensive",
        "industry": "Packaged Foods", "fullTimeEmployees": 9700, "city": "Omaha", "country": "United States",
        "marketCap": 5410000000, "trailingEps": 1.61, "trailingPE": 17.3, "forwardEps": 1.74, "forwardPE": 16.01,
        "dividendRate": 0.92, "beta": 0.44,
        "longBusinessSummary": "Lumora Foods makes frozen meals and breakfast cereals."}),
    "TSLT": ("Tessellate Semiconductor Corp. Common Stock", 142.6, {
        "shortName": "Tessellate Semiconductor", "exchange": "NMS", "sector": "Technology",
        "industry": "Semiconductors", "fullTimeEmployees": 15200, "city": "Austin", "country": "United States",
        "marketCap": 61800000000, "trailingEps": 3.97, "trailingPE": 35.92, "forwardEps": 5.12,
        "forwardPE": 27.85, "beta": 1.73,
        "longBusinessSummary": "Tessellate Semiconductor designs chiplets for data-centre accelerators."}),
    "NGBC": ("Northgate Bancorp Inc. Common Stock", 44.05, {
        "shortName": "Northgate Bancorp", "exchange": "NYQ", "sector": "Financial Services",
        "industry": "Banks - Regional", "fullTimeEmployees": 3350, "city": "Hartford", "country": "United States",
        "marketCap": 4020000000, "trailingEps": 4.4, "trailingPE": 10.01, "forwardEps": 4.62, "forwardPE": 9.53,
        "dividendRate": 1.8, "beta": 1.02,
        "longBusinessSummary": "Northgate Bancorp is a regional bank holding company in New England."}),
}
# Company-table names without price data (the company table is bigger than the price tables).
EXTRA_COMPANY_NAMES = {
    "ORLX": "Orlexa Biosciences Inc. Common Stock",
    "PVTR": "Pivotar Logistics Inc. Class A Common Stock",
    "HSKY": "Halsky Airlines Holdings Inc. Common Stock",
    "GRNV": "Greenvale Water Utilities Corp. Common Stock",
    "MRDN": "Meridian Textile Group Ltd. American Depositary Shares",
    "KVLT": "Kovalt Mining Corp. Common Stock",
    "KVLTW": "Kovalt Mining Corp Common Stock",  # normalises like KVLT's name: the search lists both twice
}
MARKET_CAPS = {ticker: float(info["marketCap"]) for ticker, (_, _, info) in COMPANIES.items()}

# Dividends: ticker -> {ex-date: amount}.
DIVIDENDS = {
    "ZPHR": {"2023-06-14": 0.11, "2023-09-13": 0.12, "2023-12-13": 0.12, "2024-03-06": 0.135},
    "AAPL": {"2023-08-11": 0.24, "2023-11-10": 0.24, "2024-02-09": 0.24},
    "BWEC": {"2023-03-14": 0.34, "2023-06-13": 0.36, "2023-09-12": 0.36, "2023-12-12": 0.36, "2024-03-05": 0.36},
    "LMRA": {"2023-04-20": 0.22, "2023-07-20": 0.23, "2023-10-19": 0.23, "2024-01-18": 0.23},
    "NGBC": {"2023-04-27": 0.45, "2023-07-27": 0.45, "2023-10-26": 0.45, "2024-01-25": 0.45},
    "QMTX": {},
}

# Bars kept exactly (daily "YYYY-MM-DD" or minute "YYYY-MM-DD HH:MM"): Open, High, Low, Close, Volume.
PINNED_BARS = {
    "ZPHR": [
        ("2024-02-12", 41.05, 41.9, 40.4, 41.05, 850000),
        ("2024-02-13", 41.02, 42.15, 40.37, 41.3, 857919),
        ("2024-02-14", 41.39, 42.8, 40.74, 41.95, 865838),
        ("2024-02-15", 41.83, 42.75, 41.18, 41.9, 873757),
        ("2024-02-16", 41.9, 43.1, 41.25, 42.25, 881676),
        ("2024-02-19", 42.37, 43.85, 41.72, 43.0, 889595),
        ("2024-02-20", 42.91, 43.9, 42.26, 43.05, 897514),
        ("2024-02-21", 43.08, 44.35, 42.43, 43.5, 855433),
        ("2024-02-22", 43.65, 45.2, 43.0, 44.35, 863352),
        ("2024-02-23", 44.29, 45.35, 43.64, 44.5, 871271),
        ("2024-02-26", 44.56, 45.9, 43.91, 45.05, 879190),
        ("2024-02-27", 44.9, 45.75, 44.25, 44.9, 887109),
        ("2024-02-28", 44.87, 46.0, 44.22, 45.15, 895028),
        ("2024-02-29", 45.24, 46.65, 44.59, 45.8, 852947),
        ("2024-03-01", 45.68, 46.6, 45.03, 45.75, 860866),
        ("2024-03-04", 45.75, 46.95, 45.1, 46.1, 868785),
        ("2024-03-05", 46.22, 47.7, 45.57, 46.85, 876704),
        ("2024-03-06", 46.76, 47.75, 46.11, 46.9, 884623),
        ("2024-03-07", 47.02, 49.88, 46.91, 49.31, 1402233),
        ("2024-03-08", 47.5, 49.05, 46.85, 48.2, 850461),
        ("2024-03-08 15:55", 48.1, 48.25, 48.05, 48.12, 1200),
        ("2024-03-08 15:56", 48.12, 48.27, 48.07, 48.14, 1331),
        ("2024-03-08 15:57", 48.14, 48.29, 48.09, 48.16, 1462),
        ("2024-03-08 15:58", 48.16, 48.31, 48.11, 48.18, 1593),
        ("2024-03-08 15:59", 48.18, 48.33, 48.13, 48.28, 1724),
    ],
    "AAPL": [
        ("2024-02-12", 182.95, 183.8, 181.53, 182.18, 51000000),
        ("2024-02-13", 182.15, 183.0, 181.01, 181.66, 51007919),
        ("2024-02-14", 181.75, 182.6, 180.89, 181.54, 51015838),
        ("2024-02-15", 181.42, 182.27, 180.07, 180.72, 51023757),
        ("2024-02-16", 180.72, 181.57, 179.65, 180.3, 51031676),
        ("2024-02-19", 180.42, 181.27, 179.63, 180.28, 51039595),
        ("2024-02-20", 180.19, 181.04, 178.91, 179.56, 51047514),
        ("2024-02-21", 179.59, 180.44, 178.59, 179.24, 51005433),
        ("2024-02-22", 179.39, 180.24, 178.67, 179.32, 51013352),
        ("2024-02-23", 179.26, 180.11, 178.05, 178.7, 51021271),
        ("2024-02-26", 178.76, 179.61, 177.83, 178.48, 51029190),
        ("2024-02-27", 178.33, 179.18, 176.91, 177.56, 51037109),
        ("2024-02-28", 177.53, 178.38, 176.39, 177.04, 51045028),
        ("2024-02-29", 177.13, 177.98, 176.27, 176.92, 51002947),
        ("2024-03-01", 176.8, 177.65, 175.45, 176.1, 51010866),
        ("2024-03-04", 176.1, 176.95, 175.03, 175.68, 51018785),
        ("2024-03-05", 175.8, 176.65, 175.01, 175.66, 51026704),
        ("2024-03-06", 175.57, 176.42, 174.29, 174.94, 51034623),
        ("2024-03-07", 174.97, 175.82, 173.97, 174.62, 51042542),
        ("2024-03-08", 174.77, 175.62, 174.05, 174.7, 51000461),
        ("2024-03-08 15:55", 174.6, 174.75, 174.55, 174.62, 1200),
        ("2024-03-08 15:56", 174.62, 174.77, 174.57, 174.64, 1331),
        ("2024-03-08 15:57", 174.64, 174.79, 174.59, 174.66, 1462),
        ("2024-03-08 15:58", 174.66, 174.81, 174.61, 174.68, 1593),
        ("2024-03-08 15:59", 174.68, 174.83, 174.63, 174.78, 1724),
    ],
    "QMTX": [
        ("2024-02-12", 12.6, 13.45, 11.65, 12.3, 2300000),
        ("2024-02-13", 12.27, 13.12, 11.6, 12.25, 2307919),
        ("2024-02-14", 12.34, 13.45, 11.69, 12.6, 2315838),
        ("2024-02-15", 12.48, 13.33, 11.6, 12.25, 2323757),
        ("2024-02-16", 12.25, 13.15, 11.6, 12.3, 2331676),
        ("2024-02-19", 12.42, 13.6, 11.77, 12.75, 2339595),
        ("2024-02-20", 12.66, 13.51, 11.85, 12.5, 2347514),
        ("2024-02-21", 12.53, 13.5, 11.88, 12.65, 2305433),
        ("2024-02-22", 12.8, 14.05, 12.15, 13.2, 2313352),
        ("2024-02-23", 13.14, 13.99, 12.4, 13.05, 2321271),
        ("2024-02-26", 13.11, 14.15, 12.46, 13.3, 2329190),
        ("2024-02-27", 13.15, 14.0, 12.2, 12.85, 2337109),
        ("2024-02-28", 12.82, 13.67, 12.15, 12.8, 2345028),
        ("2024-02-29", 12.89, 14.0, 12.24, 13.15, 2302947),
        ("2024-03-01", 13.03, 13.88, 12.15, 12.8, 2310866),
        ("2024-03-04", 12.8, 13.7, 12.15, 12.85, 2318785),
        ("2024-03-05", 12.97, 14.15, 12.32, 13.3, 2326704),
        ("2024-03-06", 13.21, 14.06, 12.4, 13.05, 2334623),
        ("2024-03-07", 13.08, 14.05, 12.43, 13.2, 2342542),
        ("2024-03-08", 13.35, 14.6, 12.7, 13.75, 2300461),
        ("2024-03-08 15:55", 13.65, 13.8, 13.6, 13.67, 1200),
        ("2024-03-08 15:56", 13.67, 13.82, 13.62, 13.69, 1331),
        ("2024-03-08 15:57", 13.69, 13.84, 13.64, 13.71, 1462),
        ("2024-03-08 15:58", 13.71, 13.86, 13.66, 13.73, 1593),
        ("2024-03-08 15:59", 13.73, 13.88, 13.68, 13.83, 1724),
    ],
}
PINNED_BARS["NWRB"] = [("2024-02-29", 56.85, 57.9, 56.4, 57.32, 1184200), ("2024-03-01", 57.4, 58.35, 57.05, 58.02, 1033500)]
PINNED_BARS["TSLT"] = [("2024-03-07", 139.4, 146.8, 139.1, 146.22, 9822000), ("2024-03-08", 146.5, 147.3, 141.9, 142.6, 11250400)]

# --- movie --------------------------------------------------------------------------------------------
# People: name, id, birthday. Movies: title, id, release date, original title/language, budget, revenue,
# rating, genres, cast [(person, character)], crew [(person, job)]. Oscars: (film, ceremony year,
# ceremony number, category, nominee name, winner).
PEOPLE = [
    ("Marisol Okonkwo-Varga", 9001, "1971-06-14"),
    ("Teodor Brandvik", 9002, "1983-02-27"),
    ("Yumi Castellanos", 9003, "1990-10-05"),
    ("Anders Pell", 9004, "1966-01-19"),
    ("Sigrid Holm", 9005, "1958-09-02"),
    ("Ines Farrow", 9006, "1975-12-11"),
    ("Rafael Domingues", 9007, "1962-04-30"),
    ("Priya Venkataraman", 9008, "1986-07-22"),
    ("Colm Ashgrove", 9009, "1979-03-08"),
    ("Beatrix Lindqvist", 9010, "1993-11-16"),
    ("Tobias Mwangi", 9011, "1969-08-04"),
    ("Helena Szabo", 9012, "1954-02-25"),
    ("Desmond Achterberg", 9013, None),
]
MOVIES = [
    ("The Glass Orchard", 7001, "2012-09-21", "The Glass Orchard", "en", 23000000, 141500000, 7.4,
     ["Drama", "Mystery"], [("Teodor Brandvik", "Elias Marr"), ("Yumi Castellanos", "Petra Lund")],
     [("Marisol Okonkwo-Varga", "Director"), ("Anders Pell", "Original Music Composer"), ("Ines Farrow", "Director of Photography")]),
    ("Salt Road Nocturne", 7002, "2017-03-03", "Salt Road Nocturne", "en", 41000000, 96250000, 6.8,
     ["Thriller"], [("Yumi Castellanos", "Dara Quill")], [("Marisol Okonkwo-Varga", "Director")]),
    ("Harbor of Small Lights", 7003, "2019-11-08", "Havn av små lys", "no", 6500000, 18700000, 7.9,
     ["Drama", "Family"], [("Teodor Brandvik", "Jon Sæle")], [("Sigrid Holm", "Director")]),
    ("Copper Meridian", 7004, "1998-05-15", "Copper Meridian", "en", 52000000, 233400000, 7.1,
     ["Adventure", "Drama"], [("Rafael Domingues", "Captain Ezra Vale"), ("Helena Szabo", "Mara Vale")],
     [("Tobias Mwangi", "Director"), ("Anders Pell", "Original Music Composer")]),
    ("The Lantern Keeper's Daughter", 7005, "2005-10-14", "The Lantern Keeper's Daughter", "en", 18000000, 64100000, 7.6,
     ["Drama", "Romance"], [("Helena Szabo", "Agnes Rowe"), ("Colm Ashgrove", "Tom Rowe")], [("Sigrid Holm", "Director")]),
    ("Vantablack Protocol", 7006, "2021-06-25", "Vantablack Protocol", "en", 165000000, 512800000, 6.5,
     ["Action", "Science Fiction"], [("Colm Ashgrove", "Agent Rourke"), ("Priya Venkataraman", "Dr. Anika Rao"),
      ("Beatrix Lindqvist", "Juno")], [("Rafael Domingues", "Director")]),
    ("Quiet Fires of Ostrava", 7007, "2016-02-12", "Tiché ohně Ostravy", "cs", 4200000, 9800000, 7.8,
     ["Drama", "History"], [("Beatrix Lindqvist", "Hana Dvořák")], [("Helena Szabo", "Director")]),
    ("Spider-Moth", 7008, "2014-07-18", "Spider-Moth", "en", 98000000, 377000000, 6.9,
     ["Action", "Fantasy"], [("Priya Venkataraman", "Mina Sato"), ("Teodor Brandvik", "Vesper")],
     [("Colm Ashgrove", "Director")]),
    ("Northern Static", 7009, "1994-03-25", "Northern Static", "en", 12000000, 48900000, 7.2,
     ["Comedy", "Drama"], [("Rafael Domingues", "Lenny Kask")], [("Desmond Achterberg", "Director")]),
]
OSCARS = [
    ("The Glass Orchard", 2013, 85, "CINEMATOGRAPHY", "Ines Farrow", True),
    ("The Glass Orchard", 2013, 85, "DIRECTING", "Marisol Okonkwo-Varga", False),
    ("Harbor of Small Lights", 2020, 92, "INTERNATIONAL FEATURE FILM", "Norway", False),
    ("Copper Meridian", 1999, 71, "MUSIC (Original Dramatic Score)", "Anders Pell", True),
    ("Copper Meridian", 1999, 71, "BEST PICTURE", "Copper Meridian", False),
    ("The Lantern Keeper's Daughter", 2006, 78, "ACTRESS IN A LEADING ROLE", "Helena Szabo", True),
    ("Vantablack Protocol", 2022, 94, "VISUAL EFFECTS", "Vantablack Protocol", True),
    ("Quiet Fires of Ostrava", 2017, 89, "FOREIGN LANGUAGE FILM", "Czech Republic", True),
    ("Spider-Moth", 2015, 87, "SOUND MIXING", "Spider-Moth", False),
]

# --- music --------------------------------------------------------------------------------------------
# Artists: name -> (country, birth_date, end_date, members, works).
ARTISTS = {
    "Halcyon Drift": ("IS", "2009-04-01", None, ["Katla Eiríksdóttir", "Bram Oduya", "Lio Fenwick"],
                      ["Northern Static", "Paper Lanterns in July", "Low Tide Radio", "Glacier Hymns (album)"]),
    "Ottoline Reyes": ("MX", "1988-11-30", None, [], ["Cinder Waltz", "Velvet Arithmetic (album)"]),
    "Jasper Quell": ("GB", "1946-05-02", "2011-08-19", [], ["Tin Soldier Parade", "Lanternfish"]),
    "Marrow-Saints": ("US", "1996", None, ["Dale Ruskin", "Wendell Okoro", "Pia Strand", "Dale Ruskin"],
                      ["Saltwater Hymnal (album)", "Grey Harbour", "Kerosene Choir"]),
    "Delphine Arceneaux": ("US", "1991-02-09", None, [], ["Kitefall", "Bayou Satellite", "Kitefall", "Moth Season (album)"]),
    "The Cobalt Hour": ("GB", "1993", "2008", ["Rhys Penhaligon", "Orla Brennan", "Sami Koistinen"],
                        ["Wireless Summer", "Glasshouse Radio (album)"]),
    "Yusuf Danjuma": ("NG", "1997-08-21", None, [], ["Lagos Neon", "Harmattan Heart"]),
    "Solveig Marchetti": ("IT", "1979-05-05", None, [], ["Orbiting Verona", "Paper Moons (album)"]),
    "Kenji Arakawa": ("JP", "1984-12-01", None, [], ["Neon Koi", "Typhoon Lullaby"]),
}
# Songs: name -> (artist, author, release country, release date).
SONGS = {
    "Paper Lanterns in July": ("Halcyon Drift", "Katla Eiríksdóttir", "IS", "2021-07-16"),
    "Cinder Waltz": ("Ottoline Reyes", "Ottoline Reyes", "MX", "2020-02-14"),
    "Tin Soldier Parade": ("Jasper Quell", "Jasper Quell", "GB", "1977-10-01"),
    "Northern Static": ("Halcyon Drift", "Bram Oduya", "IS", "2012-03-09"),
    "Low Tide Radio": ("Halcyon Drift", "Katla Eiríksdóttir", "IS", "2023-10-20"),
    "Lanternfish": ("Jasper Quell", "Jasper Quell", "GB", "1981-05-11"),
    "Grey Harbour": ("Marrow-Saints", "Dale Ruskin", "US", "2014-09-30"),
    "Kerosene Choir": ("Marrow-Saints", "Pia Strand", "US", "2023-11-03"),
    "Kitefall": ("Delphine Arceneaux", "Delphine Arceneaux", "US", "2017-04-21"),
    "Bayou Satellite": ("Delphine Arceneaux", "Delphine Arceneaux", "US", "2024-01-12"),
    "Wireless Summer": ("The Cobalt Hour", "Rhys Penhaligon", "GB", "1997-06-02"),
    "Lagos Neon": ("Yusuf Danjuma", "Yusuf Danjuma", "NG", "2023-08-25"),
    "Harmattan Heart": ("Yusuf Danjuma", "Yusuf Danjuma", "NG", "2024-02-16"),
    "Orbiting Verona": ("Solveig Marchetti", "Solveig Marchetti", "IT", "2008-09-12"),
    "Neon Koi": ("Kenji Arakawa", "Kenji Arakawa", "JP", "2023-12-01"),
    "Can U Feel It?": ("Kenji Arakawa", "Kenji Arakawa", "JP", "2022-05-06"),
    "Can U Feel It": ("Solveig Marchetti", "Solveig Marchetti", "IT", "2010-01-15"),
    "can u feel it?": ("Yusuf Danjuma", "Yusuf Danjuma", "NG", "2021-03-19"),
}
# Weekly Hot 100 (Saturdays 2023-03-11 .. 2024-03-09) of the songs above: first chart date and the
# rank of every following week while on the chart (None: off the chart that week). Filler fills the rest.
CHART_RUNS = {
    "Paper Lanterns in July": ("2023-10-28", [64, 48, 40, 33, 29, 22, 18, 15, 11, 9, 7, 6, 5, 4, 3, 3, 2, 1, 2, 1]),
    "Cinder Waltz": ("2023-12-23", [71, 52, 37, 26, 19, 12, 8, 5, 4, 2, 1, 2]),
    "Low Tide Radio": ("2023-11-04", [88, 79, 70, 66, 61, 58, 57, 63, 72, 85, 97]),
    "Kerosene Choir": ("2023-11-18", [45, 31, 24, 17, 14, 10, 10, 13, 16, 20, 23, 27, 30, 36, 42, 49, 57]),
    "Bayou Satellite": ("2024-01-27", [13, 6, 4, 3, 5, 7, 9]),
    "Lagos Neon": ("2023-09-09", [95, 90, 84, 77, 73, 80, 91, None, None, 99, 94, 98]),
    "Harmattan Heart": ("2024-03-02", [38, 21]),
    "Neon Koi": ("2023-12-16", [55, 47, 44, 50, 61, 68, 74, 81, 86, 92, 96, 100, 100]),
}
CHART_FIRST_DATE, CHART_LAST_DATE = "2023-03-11", "2024-03-09"

# Grammy rows: (year, category, nominee, artist, workers). Years outside 1957-2019 are kept in the table
# (they count for the award-count and award-date routes) but the by-year routes answer null for them.
GRAMMYS = [
    (1979, "Best New Artist", "Jasper Quell", "Jasper Quell", None),
    (1998, "Best New Artist", "The Cobalt Hour", "The Cobalt Hour", None),
    (1998, "Song Of The Year", "Wireless Summer", "The Cobalt Hour", "Rhys Penhaligon, songwriter"),
    (2009, "Album Of The Year", "Orbiting Verona", "Solveig Marchetti", "Solveig Marchetti, producer; Aldo Ferri, engineer"),
    (2015, "Album Of The Year", "Saltwater Hymnal", "Marrow-Saints", "Dale Ruskin, producer"),
    (2015, "Song Of The Year", "Grey Harbour", "Marrow-Saints", "Dale Ruskin & Pia Strand, songwriters"),
    (2016, "Best New Artist", "Delphine Arceneaux", "Delphine Arceneaux", None),
    (2018, "Song Of The Year", "Kitefall", "Delphine Arceneaux", "Delphine Arceneaux, songwriter"),
    (2019, "Best New Artist", "Halcyon Drift", "Halcyon Drift", None),
    (2019, "Album Of The Year", "Moth Season", "Delphine Arceneaux", "Delphine Arceneaux & Kenji Arakawa, producers"),
    (2021, "Song Of The Year", "Cinder Waltz", "Ottoline Reyes", "Ottoline Reyes, songwriter"),
    (2022, "Song Of The Year", "Paper Lanterns in July", "Halcyon Drift", "Katla Eiríksdóttir, songwriter"),
    (2022, "Album Of The Year", "Glacier Hymns", "Halcyon Drift", "Halcyon Drift & Lio Fenwick, producers"),
]

# --- sports -------------------------------------------------------------------------------------------
NBA_TEAMS = [
    ("ATL", "Atlanta Hawks"), ("BOS", "Boston Celtics"), ("BKN", "Brooklyn Nets"), ("CHA", "Charlotte Hornets"),
    ("CHI", "Chicago Bulls"), ("CLE", "Cleveland Cavaliers"), ("DAL", "Dallas Mavericks"), ("DEN", "Denver Nuggets"),
    ("DET", "Detroit Pistons"), ("GSW", "Golden State Warriors"), ("HOU", "Houston Rockets"), ("IND", "Indiana Pacers"),
    ("LAC", "LA Clippers"), ("LAL", "Los Angeles Lakers"), ("MEM", "Memphis Grizzlies"), ("MIA", "Miami Heat"),
    ("MIL", "Milwaukee Bucks"), ("MIN", "Minnesota Timberwolves"), ("NOP", "New Orleans Pelicans"),
    ("NYK", "New York Knicks"), ("OKC", "Oklahoma City Thunder"), ("ORL", "Orlando Magic"),
    ("PHI", "Philadelphia 76ers"), ("PHX", "Phoenix Suns"), ("POR", "Portland Trail Blazers"),
    ("SAC", "Sacramento Kings"), ("SAS", "San Antonio Spurs"), ("TOR", "Toronto Raptors"), ("UTA", "Utah Jazz"),
    ("WAS", "Washington Wizards"),
]
NBA_SEASON = ("2023-10-24", "2024-03-09")
# Games fixed by hand: (game id, date, home, away, home points, away points).
NBA_GAMES = [
    ("0022300881", "2024-03-08", "Portland Trail Blazers", "Denver Nuggets", 117, 109),
    ("0022300862", "2024-03-05", "Denver Nuggets", "Portland Trail Blazers", 121, 104),
    ("0022300870", "2024-03-07", "Boston Celtics", "Miami Heat", 98, 101),
    ("0022300420", "2023-12-15", "Portland Trail Blazers", "Boston Celtics", 95, 112),
    ("0022300884", "2024-03-08", "Houston Rockets", "Los Angeles Lakers", 124, 119),
    ("0022300890", "2024-03-09", "Golden State Warriors", "Milwaukee Bucks", 108, 113),
]
# Players fixed by hand (the first of each team's roster); the rest of the rosters are generated.
NBA_PLAYERS = {
    "Portland Trail Blazers": ["Deshawn Okafor"],
    "Denver Nuggets": ["Jamal Murray"],
    "Houston Rockets": ["Marcus Tillery"],
    "Los Angeles Lakers": ["Andre Whitfield"],
    "Milwaukee Bucks": ["Giannis Kouros"],
}

# The opening scores of a game, fixed by hand: game id -> [(player, points)].
NBA_OPENING_SCORES = {"0022300881": [("Deshawn Okafor", 2), ("Jamal Murray", 3)]}

SOCCER_LEAGUE, SOCCER_SEASON = "ENG-Premier League", "2324"
SOCCER_TEAMS = [
    "Arsenal", "Aston Villa", "Bournemouth", "Brentford", "Brighton", "Burnley", "Chelsea", "Crystal Palace",
    "Everton", "Fulham", "Liverpool", "Luton Town", "Manchester City", "Manchester Utd", "Newcastle Utd",
    "Nott'ham Forest", "Sheffield United", "Tottenham", "West Ham", "Wolves",
]
SOCCER_FIRST_MATCHDAY = "2023-08-12"  # then every Saturday up to 2024-03-09
# Games fixed by hand: (date, home, away, home goals, away goals, referee).
SOCCER_GAMES = [
    ("2024-03-09", "Brentford", "Arsenal", 1, 2, "Rhys Tallow"),
    ("2024-03-02", "Sheffield United", "Arsenal", 0, 6, "Hollis Crane"),
    ("2024-03-09", "Manchester Utd", "Everton", 2, 0, "Anton Greaves"),
    ("2024-03-02", "Manchester City", "Manchester Utd", 3, 1, "Hollis Crane"),
]
SOCCER_CAPTAINS = {"Arsenal": "Martin Odegaard", "Brentford": "Christian Norgaard", "Manchester Utd": "Bruno Fernandes"}

# --- open ---------------------------------------------------------------------------------------------
# name -> (summary text, structured facts). Every name is its own entity.
OPEN_ENTITIES = {
    "Brimholt Observatory": ("Brimholt Observatory is a mountain-top astronomical observatory on Mount Skarvell, opened in 1962.",
                             {"location": "Mount Skarvell", "opened": "1962", "elevation_m": "2140",
                              "main_telescope": "3.1 m Ravensworth reflector", "operator": "Nordvik Space Institute"}),
    "Nordvik Space Institute": ("The Nordvik Space Institute is a research body founded in 1949.",
                                {"founded": "1949", "headquarters": "Tromsvik", "director": "Hallgrim Solberg"}),
    "Lake Varnholm": ("Lake Varnholm is a glacial lake with a maximum depth of 187 metres.",
                      {"max_depth_m": "187", "area_km2": "42.6", "country": "Norway"}),
    "Tromsvik": ("Tromsvik is a coastal town in northern Norway with 14,300 inhabitants.",
                 {"country": "Norway", "population": "14,300", "mayor": "Ingrid Vassbotn", "founded": "1794"}),
    "Mount Skarvell": ("Mount Skarvell is a 2,310 m peak in the Kjolen range.",
                       {"elevation_m": "2310", "range": "Kjolen", "first_ascent": "1887"}),
    "Ravensworth College": ("Ravensworth College is a private liberal-arts college in Vermont, founded in 1821.",
                            {"founded": "1821", "location": "Ravensworth, Vermont", "students": "2,140",
                             "president": "Dana Whitcombe", "mascot": "Ravens"}),
    "Ostrava Tramway Bridge": ("The Ostrava Tramway Bridge is a steel arch bridge completed in 1931.",
                               {"opened": "1931", "length_m": "412", "crosses": "Oder river", "architect": "Jan Hradil"}),
    "Florida": ("Florida is a state in the southeastern United States.", {"capital": "Tallahassee", "admission": "1845"}),
    "Florida City, Florida": ("Florida City is a city in Miami-Dade County, Florida.", {"population": "13,085"}),
    "Varnholm Dam": ("Varnholm Dam holds back Lake Varnholm; it was completed in 1958.",
                     {"completed": "1958", "height_m": "96", "owner": "Nordvik Kraft"}),
    "Sable Point Lighthouse": ("Sable Point Lighthouse is a 34 m lighthouse on the Lake Huron shore, first lit in 1868.",
                               {"height_m": "34", "first_lit": "1868", "automated": "1962"}),
    "The Quiet Cartographer": ("The Quiet Cartographer is a 2009 novel by Imogen Castlereagh.",
                               {"author": "Imogen Castlereagh", "published": "2009", "pages": "412",
                                "publisher": "Harrow & Finch"}),
}
