import { ArrowRight, CalendarDays, CircleCheck, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { mainNavItems } from '#web/components/layout/nav-items.ts';
import { ScammerNetworkIcon } from '#web/components/layout/scammer-network-icon.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { getConfig } from '#web/lib/config.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { FeaturedPosts } from '../home/featured-posts.tsx';
import { IndexHeadlines } from '../home/index-headlines.tsx';
import { LatestNews } from '../home/latest-news.tsx';
import { NewestBrands } from '../home/newest-brands.tsx';
import { PassOrGasLeaders } from '../home/pass-or-gas-leaders.tsx';
import { useScammerNetworkActions } from '../hooks/use-scammer-network-actions.ts';

const promises = [
  'Scam reports reviewed by our team before they are published',
  'One vote per member per product, so ratings stay honest',
  'Market indices with published methodology and sources',
  "Members' privacy settings, data export and deletion built in",
  'Strictly for adults 21+ (or the legal age where they live)',
];

const sectionBlurbs: Record<string, string> = {
  '/news': 'Industry headlines from trusted sources and posts from our team, in one feed.',
  '/market-index': 'A cannabis equity index and a flower price index, with their methodology and sources.',
  '/pass-or-gas':
    'Vote on products — Gas if it is fire, Pass if it is not — and see what the community rates.',
  '/brand-directory': 'Brands with their licences, products and community scores, in one searchable place.',
};

export default function HomePage() {
  useDocumentTitle();
  const { siteName } = getConfig();
  const { user } = useAuth();
  const { hasAccess, openScammerNetwork } = useScammerNetworkActions(user !== null);

  return (
    <>
      <section aria-labelledby="hero-title" className="border-b bg-linear-to-br from-hero-from to-hero-to">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1fr_24rem] lg:px-8">
          <div>
            <Badge variant="secondary" className="border-primary/20">
              <Sparkles aria-hidden="true" className="size-3.5" />
              For adults 21+ in the legal cannabis industry
            </Badge>
            <h1
              id="hero-title"
              className="mt-5 max-w-3xl font-extrabold text-4xl tracking-tight sm:text-5xl lg:text-6xl"
            >
              The trusted hub for the <span className="text-primary">legal cannabis</span> industry
            </h1>
            <p className="mt-6 max-w-2xl text-lg text-muted-foreground sm:text-xl">
              {siteName} brings together industry news, a market index, Pass or Gas product voting, a brand
              directory and the Scammer Network — so growers, brands, sellers and buyers can trade with
              confidence.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/booking">
                  <CalendarDays aria-hidden="true" />
                  Book a promo session
                </Link>
              </Button>
              <Button size="lg" variant="outline" onClick={openScammerNetwork}>
                <ScammerNetworkIcon hasAccess={hasAccess} />
                Open the Scammer Network
              </Button>
            </div>
          </div>
          <div className="hidden rounded-2xl border bg-card/80 p-6 shadow-xl backdrop-blur lg:block">
            <h2 className="font-semibold text-lg">Built for the industry</h2>
            <ul className="mt-4 space-y-3">
              {promises.map((promise) => (
                <li key={promise} className="flex gap-3 text-muted-foreground text-sm">
                  <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                  {promise}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
        <FeaturedPosts />
        <LatestNews />
        <div className="grid grid-cols-1 gap-x-8 lg:grid-cols-2">
          <PassOrGasLeaders />
          <div>
            <IndexHeadlines />
          </div>
        </div>
        <NewestBrands />

        <section
          aria-labelledby="sections-title"
          className="render-near-view mt-14 [--near-view-height:60rem] sm:[--near-view-height:30rem] lg:[--near-view-height:18rem]"
        >
          <h2 id="sections-title" className="font-bold text-2xl tracking-tight">
            Explore {siteName}
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {mainNavItems.map((item) => (
              <li key={item.to}>
                <Card className="group relative h-full transition-shadow hover:shadow-md">
                  <CardHeader>
                    <div className="flex size-11 items-center justify-center rounded-lg bg-secondary text-primary">
                      <item.icon aria-hidden="true" className="size-5" />
                    </div>
                    <CardTitle className="mt-3">
                      <Link to={item.to} className="after:absolute after:inset-0 after:rounded-xl">
                        {item.label}
                      </Link>
                    </CardTitle>
                    <CardDescription>{sectionBlurbs[item.to]}</CardDescription>
                    <span
                      aria-hidden="true"
                      className="mt-2 inline-flex items-center gap-1 font-medium text-primary text-sm"
                    >
                      Open <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
                    </span>
                  </CardHeader>
                </Card>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </>
  );
}
