import { HowRankingsWork } from '#web/features/pass-or-gas/components/how-rankings-work.tsx';

export default function PassOrGasHowRankingsWorkPage() {
  return <HowRankingsWork />;
}
