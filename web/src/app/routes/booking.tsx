import { ArrowLeft, X } from 'lucide-react';
import { useNavigate } from 'react-router';
import { PageContainer } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { BookingPageBody } from '#web/features/booking/components/member-booking.tsx';
import { PromoSessionSummary } from '#web/features/booking/components/promo-session-summary.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function BookingPage() {
  useDocumentTitle('Book Your Promo Session');
  const navigate = useNavigate();
  // Product §booking: Back and close both go back one step; a visitor who arrived here directly goes home
  // instead.
  const goBack = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate('/');
  };

  return (
    <PageContainer className="max-w-3xl">
      <div className="flex items-center justify-between">
        <Button variant="ghost" className="-ml-3" onClick={goBack}>
          <ArrowLeft aria-hidden="true" />
          Back
        </Button>
        <Button variant="ghost" size="icon" aria-label="Close" onClick={goBack}>
          <X aria-hidden="true" />
        </Button>
      </div>
      <div className="mt-6 text-center">
        <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">Book Your Promo Session</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Schedule a promotional session for your cannabis product.
        </p>
      </div>
      <PromoSessionSummary />
      <BookingPageBody />
    </PageContainer>
  );
}
