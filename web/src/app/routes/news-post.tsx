import { useParams } from 'react-router';
import { PostPage } from '#web/features/news/components/post-page.tsx';

export default function NewsPostPage() {
  const { id = '' } = useParams();
  return <PostPage key={id} id={id} />;
}
