import { Home } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center px-4 py-24 text-center">
      <p aria-hidden="true" className="font-extrabold text-8xl text-primary tracking-tight">
        404
      </p>
      <h1 className="mt-4 font-bold text-2xl tracking-tight">
        <span className="sr-only">404: </span>Oops! Page not found
      </h1>
      <p className="mt-3 text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Button asChild className="mt-8">
        <Link to="/">
          <Home aria-hidden="true" />
          Return to Home
        </Link>
      </Button>
    </div>
  );
}
