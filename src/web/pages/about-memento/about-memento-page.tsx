import { AboutArticle } from '@web/features/public-site/about-article';

export default function AboutMementoPage() {
  return <AboutArticle title="About Memento" />;
}
