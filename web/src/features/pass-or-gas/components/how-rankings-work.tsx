import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Scale } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { rankingConstantsQueryOptions } from '../api/get-ranking-constants.ts';
import {
  decayWeight,
  TRENDING_HALF_LIFE_HOURS,
  trendingBounds,
  trendingScore,
  WILSON_Z,
  wilsonLowerBound,
} from '../ranking.ts';

const EXAMPLE_A = { gas: 8, pass: 2 };
const EXAMPLE_B = { gas: 1, pass: 0 };
const TREND_EXAMPLE = [
  { gas: true, ageHours: 0 },
  { gas: true, ageHours: 24 },
  { gas: false, ageHours: 48 },
  { gas: true, ageHours: 96 },
];

// Two Gas on 1 December, one Pass on 2 December, checked at midnight (UTC) on 3 December.
const BOUNDS_EXAMPLE = [
  { day: '2026-12-01', gas: 2, pass: 0 },
  { day: '2026-12-02', gas: 0, pass: 1 },
];
const BOUNDS_NOW = new Date('2026-12-03T00:00:00Z');

function Formula({ children }: { children: string }) {
  return <pre className="overflow-x-auto rounded-md bg-secondary p-3 font-mono text-sm">{children}</pre>;
}

function WilsonExample() {
  const n = EXAMPLE_A.gas + EXAMPLE_A.pass;
  const p = EXAMPLE_A.gas / n;
  const z = WILSON_Z;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p) + (z * z) / (4 * n)) / n);
  const denominator = 1 + (z * z) / n;
  const steps = [
    `${EXAMPLE_A.gas} Gas and ${EXAMPLE_A.pass} Pass: n = ${n}, p = ${p.toFixed(2)}, z² = ${(z * z).toFixed(4)}`,
    `numerator = ${p.toFixed(2)} + ${((z * z) / (2 * n)).toFixed(4)} − ${spread.toFixed(4)} = ${(centre - spread).toFixed(4)}`,
    `denominator = 1 + ${((z * z) / n).toFixed(4)} = ${denominator.toFixed(4)}`,
    `score = ${wilsonLowerBound(EXAMPLE_A.gas, EXAMPLE_A.pass).toFixed(4)}`,
  ];
  return (
    <>
      <Formula>{steps.join('\n')}</Formula>
      <p>
        A product with {EXAMPLE_B.gas} Gas and {EXAMPLE_B.pass} Pass scores{' '}
        <strong>{wilsonLowerBound(EXAMPLE_B.gas, EXAMPLE_B.pass).toFixed(4)}</strong>, so it ranks below. Ties
        go to the product with more counted votes.
      </p>
    </>
  );
}

/** product §pass-or-gas: each formula, its constants and a worked example (decisions 115, 116). */
export function HowRankingsWork() {
  useDocumentTitle('How rankings work — Pass or Gas');
  const constants = useQuery(rankingConstantsQueryOptions());
  const c = constants.data;
  return (
    <PageContainer className="max-w-4xl">
      <Button asChild variant="ghost" size="sm" className="-ml-2 mb-4">
        <Link to="/pass-or-gas">
          <ArrowLeft aria-hidden="true" />
          Back to Pass or Gas
        </Link>
      </Button>
      <PageHeader
        icon={Scale}
        title="How rankings work"
        description="Every position on Pass or Gas comes from public numbers and the formulas below. Top and New can be checked exactly; Trending within published bounds, because the exact time of each vote is kept private."
      />
      <div className="mt-8 grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle level={2}>Which votes count</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p>
              Any member with a confirmed email address can vote once per product, change the vote or take it
              back. A vote counts in the rankings once the member's account is at least{' '}
              <strong>{c ? c.min_account_age_hours : 24} hours</strong> old; until then it is shown to its
              owner as pending.
            </p>
            <p>
              Votes that look coordinated are held for a moderator instead of counted
              {c && !c.ring_detection ? ' (this check is currently switched off on this site)' : ''}: when{' '}
              <strong>{c?.ring_size ?? 4} or more</strong> accounts created within{' '}
              {c?.ring_account_span_hours ?? 24} hours of each other vote on the same product from the same
              network address within {c?.ring_window_minutes ?? 15} minutes. To do this we keep, for each
              vote, a keyed hash of the address (never the address itself) and the account's age, for{' '}
              {c?.signal_retention_days ?? 30} days.
            </p>
            <p>Every product page shows how many of its votes are counted, pending and held.</p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle level={2}>Top: the Wilson lower bound</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p>
              A product with 1 Gas and no Pass has a 100% Gas share, but that says little. Top ranks products
              by the lowest Gas share that is still plausible given their votes: the lower bound of the 95%
              Wilson score interval.
            </p>
            <Formula>{`n = Gas + Pass,  p = Gas / n,  z = ${c?.wilson_z ?? WILSON_Z}
score = (p + z²/(2n) − z·√((p(1−p) + z²/(4n)) / n)) / (1 + z²/n)
score = 0 when n = 0`}</Formula>
            <p className="font-medium">Worked example</p>
            <WilsonExample />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle level={2}>Trending: net Gas, decaying with age</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p>
              Each counted vote adds +1 (Gas) or −1 (Pass), multiplied by a weight that halves every{' '}
              <strong>{c?.trending_half_life_hours ?? TRENDING_HALF_LIFE_HOURS} hours</strong> since the vote
              was cast, changed or began counting.
            </p>
            <Formula>{`score = Σ (+1 for Gas, −1 for Pass) × 2^(−age in hours / ${c?.trending_half_life_hours ?? TRENDING_HALF_LIFE_HOURS})`}</Formula>
            <p className="font-medium">Worked example</p>
            <p>
              Gas now (weight {decayWeight(0)}), Gas a day ago ({decayWeight(24).toFixed(4)}), Pass two days
              ago (−
              {decayWeight(48)}), Gas four days ago ({decayWeight(96)}): score ={' '}
              <strong>{trendingScore(TREND_EXAMPLE).toFixed(4)}</strong>.
            </p>
            <p className="font-medium">What you can check, and what you cannot</p>
            <p data-testid="trending-check">
              The score needs the exact time of each vote, and we do not publish those: they would show when a
              member voted. So Trending cannot be recomputed exactly from public data. What is published is
              each product's score (<code>trending_score</code> in the <code>product_rankings</code> view) and
              its counted Gas and Pass per UTC day (the product page's chart; the{' '}
              <code>product_vote_days</code> table), with no voter named. A vote of a given day weighs at
              least its weight at the day's start and at most its weight at the day's end, so anyone can
              compute the range the score must lie in; the two ends are at most a factor of{' '}
              {(2 ** (24 / (c?.trending_half_life_hours ?? TRENDING_HALF_LIFE_HOURS))).toFixed(4)} apart per
              vote. Example: 2 Gas on 1 December and 1 Pass on 2 December, checked at midnight (UTC) on 3
              December: between {trendingBounds(BOUNDS_EXAMPLE, BOUNDS_NOW)[0].toFixed(4)} and{' '}
              {trendingBounds(BOUNDS_EXAMPLE, BOUNDS_NOW)[1].toFixed(4)}.
            </p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle level={2}>New</CardTitle>
          </CardHeader>
          <CardContent>
            <p>The newest products first, by the time they were added.</p>
          </CardContent>
        </Card>
      </div>
    </PageContainer>
  );
}
