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

- **Quarterly:** for each state and calendar quarter, the latest observation in that quarter.
- **Each state relative to its own base:** rᵢ(q) = pᵢ(q) / pᵢ(first quarter state i was observed).
  Units and statistics cancel because a state is only ever compared with itself.
- **Composite:** I(q) = 100 × mean of rᵢ(q) over the states observed in quarter q, rounded to 6 decimals.
- **Base:** the first quarter with an observation (2018 Q4) is 100.
- **Gaps:** a quarter in which no state reported anything carries the previous value and is marked
  *carried*; nothing is interpolated. Quarters in which only some states reported average over those
  states — the table names them for every point.

## Worked example

Colorado 759 USD/lb in 2018 Q4 (its base) and Massachusetts 14.08 USD/g in 2018 Q4 (its base):
I = 100 × (1 + 1) / 2 = **100**. In 2019 Q1 only Colorado reported, 781 USD/lb:
I = 100 × 781 / 759 = **102.898551**. In 2020 Q1 Colorado published no new rate, Michigan reported for the first time (512.05 USD/oz,
its base) and Massachusetts reported 14.68 (January) and 14.57 (February); the latest counts:
I = 100 × (1 + 14.57 / 14.08) / 2 = **101.740057**.

## Sources

`flower-prices.csv`: regulator price points as reported by the named publication (each point's source
is shown next to it). Periods have gaps; states start at different dates.
$md$, updated_at = now()
where slug = 'flower-price';
