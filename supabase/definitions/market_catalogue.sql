-- The published methodology of each index (product §market-index): the page renders this Markdown.
-- It describes exactly what supabase/definitions/market_compute.sql computes.
update public.market_indices set methodology = $md$
## What it measures

The average price move of publicly listed cannabis companies (the universe of
`equity-universe.csv`: multi-state operators, Canadian licensed producers, a cannabis REIT), each
company counting the same, whatever its size.

## Formula

- **Trading days** are the days with at least one imported daily close of a constituent.
- **Base:** on the first trading day the index is **100**.
- **Rebalance days:** the first trading day of every calendar quarter, and any day the constituents
  change (each constituent has an effective-from date and an optional effective-to date, exclusive).
- At the close of a rebalance day *R* the index holds every constituent *i* effective on *R* in equal
  value: shares *sᵢ = L(R) / (N · Pᵢ(R))*. The divisor is folded into the shares, so on any later day
  *t* up to the next rebalance day

  **L(t) = Σ sᵢ · Pᵢ(t) = L(R) × mean over i of Pᵢ(t) / Pᵢ(R)**

- The level on a rebalance day is computed with the holdings before the rebalance, so neither a
  rebalance nor a constituent change moves the index.
- **Missing close:** a constituent without a close on a trading day counts with its previous close;
  the point is marked *carried* and names the security and the date of the close used.
- Levels are rounded to 6 decimals, and each period starts from the rounded level.
- **Revisions:** a corrected close is imported as a new revision of that close; the index is
  recomputed and any changed level becomes a new revision of its point (earlier values are kept and
  shown).

## Worked example

Two constituents, A and B. Day 1 (base): A = 10, B = 20, index 100. Day 2: A = 11, B = 20:
L = 100 × (11/10 + 20/20) / 2 = **105**. Day 3 is the first day of a new quarter: A = 12, B = 18:
L = 100 × (12/10 + 18/20) / 2 = **105** (old holdings), then the index rebalances at 105. Day 4:
A = 12, B = 19.8: L = 105 × (12/12 + 19.8/18) / 2 = **110.25**.

## Sources

Daily closes are imported by the administrators from a named source (every close keeps it); until
real closes are imported the page shows a **demonstration series**, generated and labelled as such.
$md$, updated_at = now()
where slug = 'cannabis-equity';

update public.market_indices set methodology = $md$
## What it measures

How retail and wholesale flower prices have moved in the states whose regulators publish them:
Colorado (Department of Revenue average market rate, wholesale, USD per pound, a median), Oregon
(OLCC, retail, USD per gram, median or average), Michigan (CRA, retail, USD per ounce, average),
Massachusetts (CCC, retail, USD per gram, average) and Illinois (IDFPR, retail, USD per gram, average).
Every observation keeps its state's own unit and statistic and the publication that reported it; the
page shows each in USD per gram as well (1 lb = 453.59237 g, 1 oz = 28.349523125 g).

## Formula

A chain-linked index: each quarter's move comes only from states that can be compared with their own
previous point, so a state joining, leaving or skipping quarters does not move it.

- **Quarterly:** for each state and calendar quarter, the latest observation in that quarter.
- **Linked point:** a state's quarterly point is compared with the state's previous quarterly point
  (its last one, however many quarters back) when both are in the same series, unit and statistic.
  Its relative change is rᵢ(q) = pᵢ(q) / pᵢ(previous point). A state's units never meet another
  state's, but a state's statistic can change: Oregon publishes a median in some periods and an
  average in others, and a median is not compared with an average — at such a change the new
  statistic's first point only starts a new link (as a state's first point does) and does not move
  the index.
- **Gaps:** a state that skipped quarters is compared with its last point; the whole change since
  that point counts in the quarter of the new point.
- **Composite:** I(q) = I(previous quarter) × the equally weighted arithmetic mean of rᵢ(q) over the
  linked states of quarter q, rounded to 6 decimals; each quarter is chained from the rounded value.
  The mean of the relative changes lies between the smallest and the largest of them, so the index
  never moves further in a quarter than the state that moved most.
- **Base:** the first quarter with an observation (2018 Q4) is **100**.
- **No linked state:** a quarter in which no state reported, or only states without a comparable
  previous point, keeps the previous value and is marked *carried*; nothing is interpolated.
- **Which states count:** every point names the states that contributed (with the two prices of
  each ratio) and the states that reported but were not compared (first point, or a changed
  statistic).

## Worked example

From the CSV the page offers. 2018 Q4: Colorado 759 USD/lb and Massachusetts 14.08 USD/g, both first
points: I = **100**. 2019 Q1: only Colorado reported, 781 USD/lb: I = 100 × 781 / 759 =
**102.898551**. 2019 Q2 and Q3: Colorado 806 and 850, I = 102.898551 × 806 / 781 = **106.192359**, then
106.192359 × 850 / 806 = **111.989460**. 2019 Q4: Colorado 999: I = 111.989460 × 999 / 850 =
**131.620554**. 2020 Q1: our data holds no Colorado rate for this quarter (a gap in our data);
Michigan reported for the first time (512.05 USD/oz — a first point, not compared) and
Massachusetts reported 14.68 (January) and 14.57 (February); the latest counts and is compared with
Massachusetts's previous point, 14.08 in 2018 Q4: I = 131.620554 × 14.57 / 14.08 = **136.201099**.
2021 Q1: Colorado 1721 (previous 1316) and Michigan 323.68 (previous 512.05):
I = 179.420066 × (1721 / 1316 + 323.68 / 512.05) / 2 = **174.026387**.

## How current it is

- Each quarter's point is dated by the quarter's first day. The value shown is **as of** that date.
- Flower prices normally get a point every quarter: a value more than **3 months** older than today
  (the index's latest point, or a state's latest observation) is marked **stale** wherever it is
  shown, the home page included. Nothing is carried forward to make it look current.
- Every change figure names its range ("over 1Y (since 2025-01-01)", "since the first value"). The
  home page shows the change over **1Y**, computed from the same points as this page's 1Y range.
- The page shows each state's own series beside the composite, each in its own unit and statistic.

## Sources

`flower-prices.csv`: each point is a state regulator's figure as reported by the named publication,
and is labelled so: "Colorado Department of Revenue figure as reported by westword.com 2024-10-01", or
"… from its own publication" where the regulator's release is the source. Periods have gaps; states
start at different dates.
$md$,
  description = 'Quarterly chain-linked index of state regulators'' flower prices as reported by the named publications: each quarter moves by the mean change of the states comparable with their own previous point, base 100.',
  updated_at = now()
where slug = 'flower-price';
