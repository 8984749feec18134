import { AboutArticle } from '@web/features/public-site/about-article';

export default function AboutPage() {
  return <AboutArticle title="About" />;
}
