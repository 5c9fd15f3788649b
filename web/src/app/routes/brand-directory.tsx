import { BrandDirectoryPage } from '#web/features/brands/components/brand-directory-page.tsx';

export default function BrandDirectoryRoute() {
  return <BrandDirectoryPage />;
}
